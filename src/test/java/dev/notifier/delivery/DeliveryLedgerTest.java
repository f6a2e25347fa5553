package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.DatabaseTestBase;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

/** The delivery ledger against PostgreSQL: the fences of its statements, and group commit. */
class DeliveryLedgerTest extends DatabaseTestBase {

    private static final Date CREATED = new Date(1_700_000_000_123L);

    private final AtomicInteger commits = new AtomicInteger();
    private final ExecutorService senders = Executors.newFixedThreadPool(64);
    private DeliveryLedger ledger;

    @BeforeEach
    void ledger() {
        JdbcTransactionManager counting = new JdbcTransactionManager(db.jdbc().getDataSource()) {
            @Override
            protected void doCommit(DefaultTransactionStatus status) {
                super.doCommit(status);
                commits.incrementAndGet();
            }
        };
        ledger = new DeliveryLedger(db.jdbc().getDataSource(), new TransactionTemplate(counting), 200);
    }

    @AfterEach
    void close() {
        senders.shutdownNow();
        ledger.close();
    }

    @Test
    void shouldClaimOnlyTheRowIntakeJustWroteAndNobodyTried() {
        UUID fresh = row("EMAIL", 0, CREATED);
        UUID tried = row("EMAIL", 1, CREATED);
        UUID older = row("EMAIL", 0, new Date(CREATED.getTime() - 1));

        assertThat(ledger.claimFresh(fresh, "EMAIL", CREATED, "token-A", later())).isTrue();
        assertThat(ledger.claimFresh(fresh, "EMAIL", CREATED, "token-B", later())).as("claimed already").isFalse();
        assertThat(ledger.claimFresh(tried, "EMAIL", CREATED, "token-A", later())).as("a retry is the poller's").isFalse();
        assertThat(ledger.claimFresh(older, "EMAIL", CREATED, "token-A", later())).as("another intake's row").isFalse();

        assertThat(events.row(fresh, "EMAIL")).containsEntry("status", "SENDING").containsEntry("attempts", 1)
                .containsEntry("claim_token", "token-A");
        assertThat(events.row(tried, "EMAIL")).containsEntry("status", "PENDING");
    }

    @Test
    void shouldRenewOnlyItsOwnClaim() {
        UUID eventId = row("PUSH", 0, CREATED);
        ledger.claimFresh(eventId, "PUSH", CREATED, "token-A", later());

        assertThat(ledger.renew(eventId, "PUSH", "token-B", later())).isFalse();
        assertThat(ledger.renew(eventId, "PUSH", "token-A", later())).isTrue();
    }

    @Test
    void shouldRecordEachOutcomeWithItsAttempt() {
        UUID sent = claimed("EMAIL");
        UUID failed = claimed("PUSH");
        UUID retried = claimed("EMAIL");
        Date now = new Date();

        ledger.sent(sent, "EMAIL", 1, now);
        ledger.failed(failed, "PUSH", "token-" + failed, 1, "400 unknown token", now);
        ledger.retry(retried, "EMAIL", "token-" + retried, 1, "421 busy", later(), now);

        assertThat(events.row(sent, "EMAIL")).containsEntry("status", "SENT");
        assertThat(events.row(failed, "PUSH")).containsEntry("status", "FAILED").containsEntry("last_error", "400 unknown token");
        assertThat(events.row(retried, "EMAIL")).containsEntry("status", "PENDING").containsEntry("last_error", "421 busy");
        assertThat(db.jdbc().queryForList("SELECT outcome FROM notification_attempts ORDER BY outcome", String.class))
                .containsExactly("FAILED", "RETRY", "SENT");
    }

    @Test
    void shouldNotRecordAFailureOverAClaimTakenOver() {
        UUID eventId = claimed("PUSH");

        ledger.failed(eventId, "PUSH", "stale-token", 1, "503", new Date());

        assertThat(events.row(eventId, "PUSH")).containsEntry("status", "SENDING");
    }

    /**
     * Writes that queue while a transaction runs share the next one: 50 senders, 2 commits. The first
     * write is held up by a row lock so that the other 49 are certainly waiting when it commits.
     */
    @Test
    void shouldCommitTheWritesOfManySendersTogether() throws Exception {
        UUID blocked = claimed("EMAIL");
        List<UUID> others = new ArrayList<>();
        for (int i = 0; i < 49; i++) {
            others.add(claimed("PUSH"));
        }
        commits.set(0);
        List<Future<?>> writes = new ArrayList<>();
        TransactionTemplate lockHolder = new TransactionTemplate(new DataSourceTransactionManager(db.jdbc().getDataSource()));

        lockHolder.executeWithoutResult(lock -> {
            db.jdbc().queryForList("SELECT id FROM notifications WHERE event_id = ? FOR UPDATE", blocked);
            writes.add(senders.submit(() -> ledger.sent(blocked, "EMAIL", 1, new Date())));
            await().until(() -> waitsForLock(blocked));
            others.forEach(id -> writes.add(senders.submit(() -> ledger.sent(id, "PUSH", 1, new Date()))));
            await().until(() -> ledger.queued() == 49);
        });
        for (Future<?> write : writes) {
            write.get();
        }

        assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'SENT'")).isEqualTo(50);
        assertThat(db.count("SELECT count(*) FROM notification_attempts WHERE outcome = 'SENT'")).isEqualTo(50);
        assertThat(commits.get()).as("transactions for 50 writes").isEqualTo(2);
    }

    /** A bad write in a shared transaction fails only its own sender; the others are retried alone and commit. */
    @Test
    void shouldFailOnlyTheBadWriteOfAGroup() throws Exception {
        UUID blocked = claimed("EMAIL");
        UUID good = claimed("PUSH");
        TransactionTemplate lockHolder = new TransactionTemplate(new DataSourceTransactionManager(db.jdbc().getDataSource()));
        List<Future<?>> writes = new ArrayList<>();

        lockHolder.executeWithoutResult(lock -> {
            db.jdbc().queryForList("SELECT id FROM notifications WHERE event_id = ? FOR UPDATE", blocked);
            writes.add(senders.submit(() -> ledger.sent(blocked, "EMAIL", 1, new Date())));
            await().until(() -> waitsForLock(blocked));
            writes.add(senders.submit(() -> ledger.sent(good, "PUSH", 1, new Date())));
            writes.add(senders.submit(() -> ledger.write(
                    new DeliveryLedger.Statement("UPDATE notifications SET status = 'LOST' WHERE event_id = ?", good))));
            await().until(() -> ledger.queued() == 2);
        });

        writes.get(0).get();
        writes.get(1).get();
        assertThatThrownBy(() -> writes.get(2).get()).hasMessageContaining("notifications_status_ck");
        assertThat(events.row(good, "PUSH")).containsEntry("status", "SENT");
    }

    /** An outage fails a shared transaction's writes together, not one connection timeout per write. */
    @Test
    void shouldFailEveryWriteOfAGroupAtOnceWhenTheDatabaseIsUnreachable() {
        AtomicInteger connectionsAsked = new AtomicInteger();
        DriverManagerDataSource nowhere = new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/none") {
            @Override
            public java.sql.Connection getConnection() throws java.sql.SQLException {
                connectionsAsked.incrementAndGet();
                return super.getConnection();
            }
        };
        DeliveryLedger unreachable = new DeliveryLedger(nowhere, new TransactionTemplate(new JdbcTransactionManager(nowhere)), 10);
        List<DeliveryLedger.Write> writes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            writes.add(new DeliveryLedger.Write(List.of(new DeliveryLedger.Statement(DeliveryLedger.RENEW, new Date(),
                    UUID.randomUUID(), "PUSH", "token")), new java.util.concurrent.CompletableFuture<>()));
        }

        unreachable.runTogether(writes);

        assertThat(writes).allSatisfy(write -> assertThat(write.done()).isCompletedExceptionally());
        assertThat(connectionsAsked.get()).as("connections asked for").isEqualTo(1);
    }

    private boolean waitsForLock(UUID eventId) {
        return db.count("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND wait_event_type = 'Lock' AND query LIKE 'UPDATE notifications%'") == 1;
    }

    private UUID claimed(String channel) {
        UUID eventId = row(channel, 0, CREATED);
        assertThat(ledger.claimFresh(eventId, channel, CREATED, "token-" + eventId, later())).isTrue();
        return eventId;
    }

    private UUID row(String channel, int attempts, Date createdAt) {
        UUID eventId = UUID.randomUUID();
        db.jdbc().update("INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload,"
                + " created_at, updated_at, next_attempt_at) VALUES (?, ?, 'PENDING', ?, 'u-1', 't-1', '{}', ?, ?, ?)",
                eventId, channel, attempts, new Timestamp(createdAt.getTime()), createdAt, createdAt);
        return eventId;
    }

    private static Date later() {
        return new Date(System.currentTimeMillis() + 60_000);
    }
}
