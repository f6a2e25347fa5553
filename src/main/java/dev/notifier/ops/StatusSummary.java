package dev.notifier.ops;

import dev.notifier.event.Mask;
import dev.notifier.event.Channel;
import dev.notifier.event.Recipient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** The status page's front panel: counts, the latest notifications and, in the demo, what the peers received. */
public final class StatusSummary {

    static final int LATEST = 20;

    public record Count(String channel, String status, long count) {
    }

    public record Latest(String eventId, String channel, String status, int attempts, String lastError,
                         String recipientName, String recipient, String createdAt, String updatedAt) {
    }

    public record PeerMessage(String channel, String key, String to, String title, String body, String receivedAt) {
    }

    /**
     * @param deadLettered records this instance published to the DLQ since it started; null while unknown
     * @param conflicts    of those, records that repeated a recorded eventId with other content; null while unknown
     * @param peers        what the demo's embedded SMTP server and push gateway received; null outside the demo
     */
    public record Summary(String generatedAt, List<Count> counts, long inboxSize, Long deadLettered, Long conflicts,
                          List<Latest> latest, List<PeerMessage> peers) {
    }

    private final JdbcTemplate jdbc;
    private final NotificationCounts counts;
    private final CamelStatistics statistics;
    private final StoredNotifications stored;
    private final Supplier<PeerInbox> peerInbox;

    public StatusSummary(DataSource dataSource, NotificationCounts counts, CamelStatistics statistics,
                         StoredNotifications stored, Supplier<PeerInbox> peerInbox) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.counts = counts;
        this.statistics = statistics;
        this.stored = stored;
        this.peerInbox = peerInbox;
    }

    public Summary summary() {
        NotificationCounts.Snapshot snapshot = counts.now();
        List<Count> byStatus = new ArrayList<>();
        for (Channel channel : counts.channels()) {
            for (String status : NotificationCounts.STATUSES) {
                byStatus.add(new Count(channel.name(), status, snapshot.count(channel, status)));
            }
        }
        return new Summary(Instant.now().toString(), byStatus, snapshot.inboxSize(), known(statistics.deadLettered()),
                known(statistics.conflicts()), latest(), peers());
    }

    private static Long known(double count) {
        return Double.isNaN(count) ? null : (long) count;
    }

    /** The newest rows, backwards on the primary key: O(LATEST) at any table size. */
    public static final String LATEST_ROWS = "SELECT event_id, channel, status, attempts, last_error, payload, created_at,"
            + " updated_at FROM notifications ORDER BY id DESC LIMIT " + LATEST;

    private List<Latest> latest() {
        return jdbc.query(LATEST_ROWS, (row, i) -> {
                    Recipient recipient = StoredNotifications.recipientOf(stored.event(row));
                    String channel = row.getString("channel");
                    return new Latest(row.getString("event_id"), channel, row.getString("status"), row.getInt("attempts"),
                            StoredNotifications.maskedText(row.getString("last_error"), recipient),
                            StoredNotifications.maskedName(recipient), stored.maskedAddress(recipient, channel),
                            StoredNotifications.iso(row, "created_at"), StoredNotifications.iso(row, "updated_at"));
                });
    }

    private List<PeerMessage> peers() {
        PeerInbox inbox = peerInbox.get();
        if (inbox == null) {
            return null;
        }
        return inbox.received(LATEST).stream()
                // the demo masks `to` already; masking is idempotent, so this only guards against a slip
                .map(m -> new PeerMessage(m.channel(), m.key(), Mask.forChannel(m.channel(), m.to()),
                        Mask.tokenIn(m.title(), null), Mask.tokenIn(m.body(), null),
                        m.receivedAt() == null ? null : m.receivedAt().toString()))
                .toList();
    }
}
