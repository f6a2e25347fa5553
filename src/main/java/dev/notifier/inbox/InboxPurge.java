package dev.notifier.inbox;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Inbox retention: deletes inbox keys older than an age. A key older than the topic's retention
 * guards nothing, since Kafka can no longer redeliver its record. Deletes in batches, each its own
 * short transaction, so the intake never waits long on a lock held by a purge. One implementation
 * for both callers: the {@code purge-inbox} route (scheduled by {@code notifier.inbox.retention})
 * and the {@code inbox purge} command.
 *
 * <p>PostgreSQL has no {@code DELETE ... LIMIT}: a row-value IN over a limited subquery deletes one
 * batch.
 */
public class InboxPurge {

    /** Below this an age is surely a typo (15m for 15d): keys that young may still be redelivered. */
    public static final Duration MINIMUM_AGE = Duration.ofDays(1);

    public static final String DELETE_BATCH = "DELETE FROM inbox WHERE (processor_name, message_id) IN"
            + " (SELECT processor_name, message_id FROM inbox WHERE created_at < ? LIMIT ?)";
    /** The bounce mailbox's keys (routes/read-bounces) go with the same age: a report is read within minutes. */
    static final String DELETE_BOUNCE_BATCH = "DELETE FROM bounce_inbox WHERE (processor_name, message_id) IN"
            + " (SELECT processor_name, message_id FROM bounce_inbox WHERE created_at < ? LIMIT ?)";

    private final JdbcTemplate jdbc;
    private final int batchSize;
    private final Duration retention;

    /** @param retention the scheduled age, or {@code null} when only the command purges */
    public InboxPurge(DataSource dataSource, int batchSize, Duration retention) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("inbox purge batch size must be at least 1, not " + batchSize);
        }
        this.jdbc = new JdbcTemplate(dataSource);
        this.batchSize = batchSize;
        this.retention = retention == null ? null : requireSafeAge(retention);
    }

    public static Duration requireSafeAge(Duration age) {
        if (age.compareTo(MINIMUM_AGE) < 0) {
            throw new IllegalArgumentException("an inbox key must be kept longer than the topic's retention;"
                    + " an age under " + MINIMUM_AGE.toDays() + "d is refused");
        }
        return age;
    }

    /** Whether {@code notifier.inbox.retention} is set; the route does nothing otherwise. */
    public boolean isScheduled() {
        return retention != null;
    }

    public Purged purgeExpired() {
        if (retention == null) {
            throw new IllegalStateException("notifier.inbox.retention is not set");
        }
        return purgeOlderThan(retention);
    }

    public Purged purgeOlderThan(Duration age) {
        Instant cutoff = Instant.now().minus(requireSafeAge(age));
        OffsetDateTime before = cutoff.atOffset(ZoneOffset.UTC);
        int keys = 0;
        int batches = 0;
        for (String delete : java.util.List.of(DELETE_BATCH, DELETE_BOUNCE_BATCH)) {
            while (!Thread.currentThread().isInterrupted()) {
                int deleted = jdbc.update(delete, before, batchSize);
                if (deleted == 0) {
                    break;
                }
                keys += deleted;
                batches++;
                if (deleted < batchSize) {
                    break;
                }
            }
        }
        return new Purged(keys, batches, cutoff);
    }

    /** What a purge did: {@code keys} deleted in {@code batches} transactions, all received before {@code cutoff}. */
    public record Purged(int keys, int batches, Instant cutoff) {
    }
}
