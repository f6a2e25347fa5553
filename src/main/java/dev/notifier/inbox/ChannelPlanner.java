package dev.notifier.inbox;

import dev.notifier.event.Channel;
import dev.notifier.event.EventParser;
import dev.notifier.event.TransferEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

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

    public ChannelPlanner(EventParser parser) {
        this.parser = parser;
    }

    public List<Map<String, Object>> plan(TransferEvent event, Collection<Map<String, Object>> optOutRows) {
        Set<String> optedOut = optOutRows == null ? Set.of()
                : optOutRows.stream().map(row -> String.valueOf(row.get("channel"))).collect(Collectors.toSet());
        List<Channel> channels = event.channels() != null ? event.channels() : derived(event, optedOut);
        String payload = parser.toJson(event);
        Date now = new Date();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Channel channel : channels) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("eventId", event.eventId());
            row.put("channel", channel.name());
            row.put("userId", event.recipient().userId());
            row.put("transferId", event.transferId());
            row.put("payload", payload);
            row.put("createdAt", now);
            rows.add(row);
        }
        return rows;
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
