package dev.notifier.retention;

import dev.notifier.inbox.InboxPurge;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Retention of personal data: deletes the notifications (their payload holds the recipient's name,
 * addresses and the transfer) and their attempt history once every row of an event is final (SENT or
 * FAILED) and none changed since the cutoff. An event goes whole, never one channel of it, so
 * {@code verify} sees either all of its rows or an inbox key without rows, which it does not count
 * as a finding. The inbox key stays (its own retention decides), and it alone keeps a redelivered
 * record from being recorded again.
 *
 * <p>In batches of {@code batchSize} events, each its own short transaction, found through the
 * {@code (status, updated_at)} index, so the purge never holds many locks or scans the table.
 */
public class NotificationPurge {

    public static final String FIND_EVENTS = "SELECT DISTINCT n.event_id FROM notifications n"
            + " WHERE n.status IN ('SENT', 'FAILED', 'BOUNCED') AND n.updated_at < ?"
            + " AND NOT EXISTS (SELECT 1 FROM notifications o WHERE o.event_id = n.event_id"
            + " AND (o.status NOT IN ('SENT', 'FAILED', 'BOUNCED') OR o.updated_at >= ?))"
            + " LIMIT ?";
    private static final String DELETE_ATTEMPTS = "DELETE FROM notification_attempts WHERE event_id = ?";
    public static final String DELETE_ROWS = "DELETE FROM notifications WHERE event_id = ?"
            + " AND status IN ('SENT', 'FAILED', 'BOUNCED') AND updated_at < ?";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final int batchSize;
    private final Duration retention;

    /** @param retention how long a final notification is kept, or {@code null}: for ever */
    public NotificationPurge(DataSource dataSource, TransactionTemplate transactions, int batchSize, Duration retention) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("purge batch size must be at least 1, not " + batchSize);
        }
        this.jdbc = new JdbcTemplate(dataSource);
        this.transactions = transactions;
        this.batchSize = batchSize;
        this.retention = retention == null ? null : InboxPurge.requireSafeAge(retention);
    }

    /** Whether {@code notifier.retention.notifications} is set; the route does nothing otherwise. */
    public boolean isScheduled() {
        return retention != null;
    }

    public Purged purgeExpired() {
        if (retention == null) {
            throw new IllegalStateException("notifier.retention.notifications is not set");
        }
        return purgeOlderThan(retention);
    }

    public Purged purgeOlderThan(Duration age) {
        Instant cutoff = Instant.now().minus(InboxPurge.requireSafeAge(age));
        OffsetDateTime before = cutoff.atOffset(ZoneOffset.UTC);
        int events = 0;
        int rows = 0;
        int batches = 0;
        while (!Thread.currentThread().isInterrupted()) {
            int[] deleted = transactions.execute(status -> deleteBatch(before));
            if (deleted[0] == 0) {
                break;
            }
            events += deleted[0];
            rows += deleted[1];
            batches++;
            if (deleted[0] < batchSize) {
                break;
            }
        }
        return new Purged(events, rows, batches, cutoff);
    }

    /** {events, notification rows} deleted. */
    private int[] deleteBatch(OffsetDateTime before) {
        List<UUID> events = jdbc.queryForList(FIND_EVENTS, UUID.class, before, before, batchSize);
        if (events.isEmpty()) {
            return new int[] {0, 0};
        }
        List<Object[]> byEvent = events.stream().map(id -> new Object[] {id}).toList();
        jdbc.batchUpdate(DELETE_ATTEMPTS, byEvent);
        int rows = 0;
        for (int count : jdbc.batchUpdate(DELETE_ROWS, events.stream().map(id -> new Object[] {id, before}).toList())) {
            rows += Math.max(count, 0);
        }
        return new int[] {events.size(), rows};
    }

    /** What a purge did: {@code rows} of {@code events} deleted in {@code batches} transactions, all final before {@code cutoff}. */
    public record Purged(int events, int rows, int batches, Instant cutoff) {
    }
}
