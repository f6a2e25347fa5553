package dev.notifier.ops.commands;

import dev.notifier.event.Channel;
import dev.notifier.event.EventParser;
import dev.notifier.event.InvalidEventException;
import dev.notifier.event.TransferEvent;
import dev.notifier.inbox.ChannelPlanner;
import dev.notifier.inbox.InboxRepository;
import java.sql.ResultSet;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What {@code verify} checks per inbox key: that the event has a row for every channel the same
 * {@link ChannelPlanner} plans for it today, re-planned from the payload stored with its rows, and
 * no (event, channel) twice. The inbox is read in keyset pages and each page's rows by their event
 * ids, both on indexes, so memory holds one page and time grows with the keys audited, not the table.
 *
 * <p>Not findings: an inbox key without any row. The pipeline records such keys legitimately (an
 * event with {@code "channels": []}, a recipient with no address, or opted out of everything), and
 * the payload that would tell them apart is stored only with the rows; such keys are counted. Nor a
 * missing channel whose recipient preference changed after the event was received: the plan at the
 * time can no longer be known.
 */
public final class InboxAudit {

    /** Keyset pages of the inbox in (created_at, message_id) order, on inbox_created_at_idx. */
    public static final String KEY_PAGE = "SELECT message_id, created_at FROM inbox WHERE processor_name = ?"
            + " AND created_at >= ? AND (created_at, message_id) > (?, ?) ORDER BY created_at, message_id LIMIT ?";
    /** A page's rows, on the (event_id, channel) unique index. */
    public static final String ROWS_OF_KEYS = "SELECT event_id, channel, payload FROM notifications WHERE event_id = ANY (?)";

    private final JdbcTemplate jdbc;
    private final EventParser parser;
    private final ChannelPlanner planner;
    private final int pageSize;
    private final Consumer<Finding> findings;
    private final Consumer<String> progress;
    private long keys;
    private long keysWithoutRows;

    /**
     * @param findings told of each finding as it is found: nothing is collected, so memory stays one
     *                 page whatever the table's size
     * @param progress told after every page how far the audit got
     */
    InboxAudit(JdbcTemplate jdbc, EventParser parser, int pageSize, Consumer<Finding> findings, Consumer<String> progress) {
        this.jdbc = jdbc;
        this.parser = parser;
        this.planner = new ChannelPlanner(parser.channels());
        this.pageSize = pageSize;
        this.findings = findings;
        this.progress = progress;
    }

    /** Audits the keys received at or after {@code since}, a page at a time; then the counts are readable. */
    InboxAudit run(Instant since) {
        OffsetDateTime afterTime = Times.parameter(since);
        String afterId = "";
        while (true) {
            List<InboxKey> page = jdbc.query(KEY_PAGE, (rs, i) -> new InboxKey(rs), InboxRepository.PROCESSOR_NAME,
                    afterTime, afterTime, afterId, pageSize);
            if (page.isEmpty()) {
                return this;
            }
            addRows(page);
            page.forEach(this::check);
            InboxKey last = page.get(page.size() - 1);
            afterTime = Times.parameter(last.receivedAt);
            afterId = last.eventId;
            progress.accept(keys + " inbox key(s) checked, received up to " + Times.format(last.receivedAt));
            if (page.size() < pageSize) {
                return this;
            }
        }
    }

    /** The page's rows, by their event id; a key that is no UUID (written by hand) can have none. */
    private void addRows(List<InboxKey> page) {
        Map<UUID, InboxKey> byEvent = new HashMap<>();
        for (InboxKey key : page) {
            try {
                byEvent.put(UUID.fromString(key.eventId), key);
            } catch (IllegalArgumentException e) {
                // no row can belong to it: counted as a key without rows
            }
        }
        if (byEvent.isEmpty()) {
            return;
        }
        jdbc.query(connection -> {
            var statement = connection.prepareStatement(ROWS_OF_KEYS);
            statement.setArray(1, connection.createArrayOf("uuid", byEvent.keySet().toArray()));
            return statement;
        }, (org.springframework.jdbc.core.RowCallbackHandler) rs -> {
            InboxKey key = byEvent.get(rs.getObject("event_id", UUID.class));
            if (key != null) {
                key.add(rs.getString("channel"), rs.getString("payload"));
            }
        });
    }

    long keys() {
        return keys;
    }

    long keysWithoutRows() {
        return keysWithoutRows;
    }

    private void check(InboxKey key) {
        keys++;
        key.copies.forEach((channel, copies) -> {
            if (copies > 1) {
                findings.accept(new Finding("duplicate", key.eventId, channel, copies + " rows for one (event, channel)"));
            }
        });
        if (key.channels.isEmpty()) {
            keysWithoutRows++;
            return;
        }
        TransferEvent event;
        try {
            event = parser.fromStored(key.payload);
        } catch (InvalidEventException | RuntimeException e) {
            findings.accept(new Finding("unreadable", key.eventId, String.join(",", key.channels), e.getMessage()));
            return;
        }
        List<Preference> preferences = event.channels() != null ? List.of()
                : jdbc.query("SELECT channel, opted_out, updated_at FROM recipient_preferences WHERE user_id = ?",
                        (rs, i) -> new Preference(rs.getString("channel"), rs.getBoolean("opted_out"),
                                Times.column(rs, "updated_at")),
                        event.recipient().userId());
        Set<Channel> optOuts = preferences.stream().filter(Preference::optedOut).map(p -> Channel.of(p.channel()))
                .collect(java.util.stream.Collectors.toSet());
        for (String channel : planner.channels(event, optOuts).stream().map(Channel::name).toList()) {
            boolean preferenceChanged = preferences.stream()
                    .anyMatch(p -> p.channel().equals(channel) && p.updatedAt().isAfter(key.receivedAt));
            if (!key.channels.contains(channel) && !preferenceChanged) {
                findings.accept(new Finding("missing", key.eventId, channel, "planned for this event ("
                        + (event.channels() != null ? "named by it" : "the recipient has the address")
                        + "), but there is no row"));
            }
        }
    }

    private static final class InboxKey {
        final String eventId;
        final Instant receivedAt;
        final Set<String> channels = new TreeSet<>();
        /** Rows per channel: more than one is a duplicate (a database someone altered, constraint included). */
        final Map<String, Integer> copies = new TreeMap<>();
        String payload;

        InboxKey(ResultSet rs) throws SQLException {
            eventId = rs.getString("message_id");
            receivedAt = Times.column(rs, "created_at");
        }

        void add(String channel, String rowPayload) {
            if (channel != null) {
                channels.add(channel);
                copies.merge(channel, 1, Integer::sum);
                payload = Objects.requireNonNullElse(payload, rowPayload);
            }
        }
    }

    private record Preference(String channel, boolean optedOut, Instant updatedAt) {
    }
}
