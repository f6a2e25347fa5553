package dev.notifier.inbox;

import dev.notifier.event.Channel;
import dev.notifier.event.EventParser;
import dev.notifier.event.TransferEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.camel.Body;
import org.apache.camel.Header;

/**
 * Decides which (event, channel) notifications an event becomes. The producer's explicit
 * {@code channels} win; without them every channel the recipient has an address for, minus the
 * channels the recipient opted out of.
 *
 * <p>Each planned notification is a map of named SQL parameters, so the route's INSERT reads
 * {@code :#eventId, :#channel, ...} directly.
 */
public class ChannelPlanner {

    private final EventParser parser;
    private final Duration fastPath;

    public ChannelPlanner(EventParser parser) {
        this(parser, Duration.ZERO);
    }

    /**
     * @param fastPath how long a new row is left to the fast path (the instance that wrote it sends
     *     it at once) before the retry poller may take it: its {@code next_attempt_at}
     */
    public ChannelPlanner(EventParser parser, Duration fastPath) {
        this.parser = parser;
        this.fastPath = fastPath;
    }

    public List<Map<String, Object>> plan(@Body TransferEvent event,
            @Header("optedOutChannels") Collection<Map<String, Object>> optOutRows) {
        return planAt(event, optOutRows, new Date());
    }

    /** The rows to insert for a new event, written at {@code now}. */
    public List<Map<String, Object>> planAt(TransferEvent event, Collection<Map<String, Object>> optOutRows, Date now) {
        Set<String> optedOut = optOutRows == null ? Set.of()
                : optOutRows.stream().map(row -> String.valueOf(row.get("channel"))).collect(Collectors.toSet());
        List<Channel> channels = event.channels() != null ? event.channels() : derived(event, optedOut);
        String payload = parser.toJson(event);
        Date firstAttemptAt = firstAttemptAt(now);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Channel channel : channels) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("eventId", event.eventId());
            row.put("channel", channel.name());
            row.put("userId", event.recipient().userId());
            row.put("transferId", event.transferId());
            row.put("payload", payload);
            row.put("createdAt", now);
            row.put("firstAttemptAt", firstAttemptAt);
            rows.add(row);
        }
        return rows;
    }

    /** When the retry poller may take a row written at {@code createdAt}, should the fast path not have sent it. */
    public Date firstAttemptAt(Date createdAt) {
        return new Date(createdAt.getTime() + fastPath.toMillis());
    }

    private static List<Channel> derived(TransferEvent event, Set<String> optedOut) {
        List<Channel> channels = new ArrayList<>();
        if (event.recipient().email() != null && !optedOut.contains(Channel.EMAIL.name())) {
            channels.add(Channel.EMAIL);
        }
        if (event.recipient().pushToken() != null && !optedOut.contains(Channel.PUSH.name())) {
            channels.add(Channel.PUSH);
        }
        return channels;
    }
}
