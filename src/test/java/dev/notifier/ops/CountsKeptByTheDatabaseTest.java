package dev.notifier.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.DatabaseTestBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;

/**
 * The counts behind the status page and the metrics (V5's triggers) equal count(*) over the tables
 * after any mix of what writes them: inserts of several rows at once, status changes of many rows in
 * one statement, updates that change no status, deletes, duplicate inbox inserts, TRUNCATE, and all of
 * it from concurrent transactions, some rolled back.
 */
class CountsKeptByTheDatabaseTest extends DatabaseTestBase {

    private static final List<String> STATUSES = List.of("PENDING", "SENDING", "SENT", "FAILED");

    @Test
    void shouldEqualCountingTheTablesAfterConcurrentWritesAndRollbacks() throws Exception {
        JdbcTemplate jdbc = db.jdbc();
        TransactionTemplate transactions = new TransactionTemplate(new JdbcTransactionManager(jdbc.getDataSource()));
        ExecutorService writers = Executors.newFixedThreadPool(6);
        List<Future<?>> work = new ArrayList<>();
        for (int w = 0; w < 6; w++) {
            work.add(writers.submit(() -> {
                for (int i = 0; i < 40; i++) {
                    boolean rollBack = i % 7 == 3;
                    try {
                        transactions.executeWithoutResult(tx -> {
                            writeSome(jdbc);
                            if (rollBack) {
                                tx.setRollbackOnly();
                            }
                        });
                    } catch (RuntimeException e) {
                        // a deadlock victim is rolled back whole: its counts with it
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : work) {
            f.get();
        }
        writers.shutdown();

        assertCountsMatch(jdbc);
        jdbc.update("DELETE FROM notifications WHERE status = 'FAILED'");
        jdbc.update("DELETE FROM inbox WHERE message_id LIKE 'a%'");
        assertCountsMatch(jdbc);
        jdbc.execute("TRUNCATE notifications");
        jdbc.execute("TRUNCATE inbox");
        assertCountsMatch(jdbc);
        assertThat(jdbc.queryForObject(NotificationCounts.INBOX_SIZE, Long.class)).isZero();
    }

    private static void writeSome(JdbcTemplate jdbc) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        UUID eventId = UUID.randomUUID();
        jdbc.update("INSERT INTO inbox (processor_name, message_id, created_at) VALUES ('record-event', ?, now())"
                + " ON CONFLICT DO NOTHING", eventId.toString());
        // the same key again: a duplicate inserts nothing, so counts nothing
        jdbc.update("INSERT INTO inbox (processor_name, message_id, created_at) VALUES ('record-event', ?, now())"
                + " ON CONFLICT DO NOTHING", eventId.toString());
        jdbc.update("INSERT INTO notifications (event_id, channel, status, user_id, transfer_id, payload, created_at,"
                + " updated_at, next_attempt_at) SELECT ?, c, 'SENDING', 'u', 't', '{}', now(), now(), now()"
                + " FROM unnest(ARRAY['EMAIL', 'PUSH', 'LINE']) AS c", eventId);
        String to = STATUSES.get(random.nextInt(STATUSES.size()));
        // many rows in one statement, some already in the target status
        jdbc.update("UPDATE notifications SET status = ?, updated_at = now() WHERE id IN"
                + " (SELECT id FROM notifications ORDER BY random() LIMIT 5)", to);
        // no status change at all
        jdbc.update("UPDATE notifications SET attempts = attempts + 1 WHERE event_id = ?", eventId);
        if (random.nextInt(4) == 0) {
            jdbc.update("DELETE FROM notifications WHERE event_id = ? AND channel = 'LINE'", eventId);
        }
    }

    private static void assertCountsMatch(JdbcTemplate jdbc) {
        Map<String, Long> counted = jdbc.queryForList("SELECT channel, status, count(*) AS n FROM notifications"
                + " GROUP BY channel, status").stream()
                .collect(Collectors.toMap(r -> r.get("channel") + "/" + r.get("status"), r -> ((Number) r.get("n")).longValue()));
        Map<String, Long> kept = jdbc.queryForList(NotificationCounts.BY_CHANNEL_AND_STATUS).stream()
                .filter(r -> ((Number) r.get("n")).longValue() != 0)
                .collect(Collectors.toMap(r -> r.get("channel") + "/" + r.get("status"), r -> ((Number) r.get("n")).longValue()));

        assertThat(kept).isEqualTo(counted);
        assertThat(jdbc.queryForObject(NotificationCounts.INBOX_SIZE, Long.class))
                .isEqualTo(jdbc.queryForObject("SELECT count(*) FROM inbox", Long.class));
    }
}
