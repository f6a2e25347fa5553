package dev.notifier.ops.commands;

import dev.notifier.event.EventParser;
import dev.notifier.event.InvalidEventException;
import dev.notifier.event.TransferEvent;
import dev.notifier.inbox.ChannelPlanner;
import dev.notifier.inbox.InboxRepository;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What {@code verify} checks per inbox key: that the event has a row for every channel the same
 * {@link ChannelPlanner} plans for it today, re-planned from the payload stored with its rows.
 *
 * <p>Not findings: an inbox key without any row. The pipeline records such keys legitimately (an
 * event with {@code "channels": []}, a recipient with no address, or opted out of everything), and
 * the payload that would tell them apart is stored only with the rows; such keys are counted. Nor a
 * missing channel whose recipient preference changed after the event was received: the plan at the
 * time can no longer be known.
 */
final class InboxAudit {

    private final JdbcTemplate jdbc;
    private final EventParser parser;
    private final ChannelPlanner planner;
    private final List<Finding> findings = new ArrayList<>();
    private int keys;
    private int keysWithoutRows;

    InboxAudit(JdbcTemplate jdbc, EventParser parser) {
        this.jdbc = jdbc;
        this.parser = parser;
        this.planner = new ChannelPlanner(parser.channels());
    }

    /** Audits the keys received at or after {@code since}; the counts and findings are then readable. */
    InboxAudit run(Instant since) {
        InboxKey[] current = {null};
        // text comparison: a message_id someone wrote by hand must be a finding, not a failed cast
        jdbc.query("""
                SELECT i.message_id, i.created_at, n.channel, n.payload
                FROM inbox i LEFT JOIN notifications n ON CAST(n.event_id AS VARCHAR(36)) = i.message_id
                WHERE i.processor_name = ? AND i.created_at >= ?
                ORDER BY i.message_id, n.channel""",
                rs -> {
                    if (current[0] == null || !current[0].eventId.equals(rs.getString("message_id"))) {
                        check(current[0]);
                        current[0] = new InboxKey(rs);
                    }
                    current[0].add(rs.getString("channel"), rs.getString("payload"));
                },
                InboxRepository.PROCESSOR_NAME, Times.parameter(since));
        check(current[0]);
        return this;
    }

    int keys() {
        return keys;
    }

    int keysWithoutRows() {
        return keysWithoutRows;
    }

    List<Finding> findings() {
        return findings;
    }

    private void check(InboxKey key) {
        if (key == null) {
            return;
        }
        keys++;
        if (key.channels.isEmpty()) {
            keysWithoutRows++;
            return;
        }
        TransferEvent event;
        try {
            event = parser.fromStored(key.payload);
        } catch (InvalidEventException | RuntimeException e) {
            findings.add(new Finding("unreadable", key.eventId, String.join(",", key.channels), e.getMessage()));
            return;
        }
        List<Preference> preferences = event.channels() != null ? List.of()
                : jdbc.query("SELECT channel, opted_out, updated_at FROM recipient_preferences WHERE user_id = ?",
                        (rs, i) -> new Preference(rs.getString("channel"), rs.getBoolean("opted_out"),
                                Times.column(rs, "updated_at")),
                        event.recipient().userId());
        Set<String> optOuts = preferences.stream().filter(Preference::optedOut).map(Preference::channel)
                .collect(java.util.stream.Collectors.toSet());
        for (String channel : planner.channels(event, optOuts)) {
            boolean preferenceChanged = preferences.stream()
                    .anyMatch(p -> p.channel().equals(channel) && p.updatedAt().isAfter(key.receivedAt));
            if (!key.channels.contains(channel) && !preferenceChanged) {
                findings.add(new Finding("missing", key.eventId, channel, "planned for this event ("
                        + (event.channels() != null ? "named by it" : "the recipient has the address")
                        + "), but there is no row"));
            }
        }
    }

    private static final class InboxKey {
        final String eventId;
        final Instant receivedAt;
        final Set<String> channels = new TreeSet<>();
        String payload;

        InboxKey(ResultSet rs) throws SQLException {
            eventId = rs.getString("message_id");
            receivedAt = Times.column(rs, "created_at");
        }

        void add(String channel, String rowPayload) {
            if (channel != null) {
                channels.add(channel);
                payload = Objects.requireNonNullElse(payload, rowPayload);
            }
        }
    }

    private record Preference(String channel, boolean optedOut, Instant updatedAt) {
    }
}
