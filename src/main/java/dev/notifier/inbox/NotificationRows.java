package dev.notifier.inbox;

import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.delivery.DeliverySchedule;
import dev.notifier.delivery.NotificationKey;
import dev.notifier.delivery.NotificationStates;
import dev.notifier.event.Channel;
import dev.notifier.event.EventParser;
import dev.notifier.event.TransferEvent;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A new event's notification rows, written in the inbox transaction: one per planned channel, each
 * claimed at birth by this instance (SENDING, a lease and a token), so it is handed to a sender at
 * once with no second write. The claims come back as {@link ClaimedNotification}s, in exchange
 * property {@value #CLAIMED}, for the hand-off after the commit; a row that already existed (the
 * inbox key was purged and the record came again) is left alone and not claimed.
 */
public class NotificationRows {

    /** The exchange property the claimed notifications travel in, from the transaction to the hand-off. */
    public static final String CLAIMED = "claimed";
    private static final Logger LOG = LoggerFactory.getLogger("dev.notifier.inbox");
    /** Per-event and batch intake's one query for opt-outs: the channels each user turned off. */
    private static final String OPT_OUTS = "SELECT user_id, channel FROM recipient_preferences"
            + " WHERE user_id = ANY(CAST(? AS varchar[])) AND opted_out = TRUE";

    private final JdbcTemplate jdbc;
    private final EventParser parser;
    private final ChannelPlanner planner;
    private final DeliverySchedule schedule;

    public NotificationRows(DataSource dataSource, EventParser parser, ChannelPlanner planner, DeliverySchedule schedule) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.parser = parser;
        this.planner = planner;
        this.schedule = schedule;
    }

    /** Inserts the event's rows in the caller's transaction; the claims in property {@value #CLAIMED}. */
    public void record(Exchange exchange) {
        TransferEvent event = exchange.getMessage().getBody(TransferEvent.class);
        // preferences only matter when the producer left the channels to us
        Set<Channel> optedOut = event.channels() != null ? Set.of()
                : optOuts(new String[] {event.recipient().userId()}).getOrDefault(event.recipient().userId(), Set.of());
        List<Channel> channels = planner.channels(event, optedOut);
        String trace = IntakeTrace.traceparent(exchange);
        exchange.setProperty(CLAIMED, insertClaimed(List.of(event), List.of(channels), e -> trace));
    }

    /** The channels each of these users opted out of (in the caller's transaction); none asked, none read. */
    public java.util.Map<String, Set<Channel>> optOuts(String[] users) {
        java.util.Map<String, Set<Channel>> byUser = new java.util.HashMap<>();
        if (users.length > 0) {
            jdbc.query(OPT_OUTS, row -> {
                byUser.computeIfAbsent(row.getString("user_id"), user -> new java.util.HashSet<>())
                        .add(Channel.of(row.getString("channel")));
            }, (Object) users);
        }
        return byUser;
    }

    /**
     * Inserts claimed rows for events and their channels (index for index), under one new token;
     * returns the claims of the rows that were inserted.
     */
    public List<ClaimedNotification> insertClaimed(List<TransferEvent> events, List<List<Channel>> channelsPerEvent) {
        return insertClaimed(events, channelsPerEvent, e -> null);
    }

    /** @param traceOf the {@code traceparent} of each event's intake (null while tracing is off) */
    public List<ClaimedNotification> insertClaimed(List<TransferEvent> events, List<List<Channel>> channelsPerEvent,
                                                   java.util.function.Function<TransferEvent, String> traceOf) {
        String claimToken = NotificationStates.newClaimToken();
        Instant now = Instant.now();
        Timestamp created = Timestamp.from(now);
        Instant until = schedule.claimUntil().toInstant();
        Timestamp claimedUntil = Timestamp.from(until);
        List<String> eventIds = new ArrayList<>();
        List<String> channels = new ArrayList<>();
        List<String> users = new ArrayList<>();
        List<String> transfers = new ArrayList<>();
        List<String> payloads = new ArrayList<>();
        List<String> traces = new ArrayList<>();
        List<ClaimedNotification> planned = new ArrayList<>();
        for (int e = 0; e < events.size(); e++) {
            TransferEvent event = events.get(e);
            String payload = parser.toJson(event);
            String trace = traceOf.apply(event);
            for (Channel channel : channelsPerEvent.get(e)) {
                eventIds.add(event.getEventIdText());
                channels.add(channel.name());
                users.add(event.recipient().userId());
                transfers.add(event.transferId());
                payloads.add(payload);
                traces.add(trace);
                planned.add(new ClaimedNotification(new NotificationKey(event.eventId(), channel), event, null, 1, now,
                        claimToken, until, new ClaimedNotification.Budget(now, 0), null, trace));
            }
        }
        if (planned.isEmpty()) {
            return List.of();
        }
        Set<NotificationKey> inserted = new java.util.HashSet<>(jdbc.query(NotificationStates.INSERT_CLAIMED,
                (row, i) -> new NotificationKey(row.getObject("event_id", UUID.class), Channel.of(row.getString("channel"))),
                created, created, created, claimedUntil, claimToken, array(eventIds), array(channels), array(users),
                array(transfers), array(payloads), array(traces)));
        List<ClaimedNotification> claimed = new ArrayList<>(planned.size());
        for (ClaimedNotification claim : planned) {
            if (inserted.contains(claim.key())) {
                claimed.add(claim);
                LOG.debug("{} recorded -> SENDING", claim.key());
            } else {
                LOG.info("{} already has its row: left as it is", claim.key());
            }
        }
        return claimed;
    }

    private static String[] array(List<String> column) {
        return column.toArray(String[]::new);
    }
}
