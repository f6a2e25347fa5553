package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.notifier.delivery.GroupCommit.Statement;
import dev.notifier.support.DatabaseTestBase;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
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

/** Group commit against PostgreSQL: many callers' writes in one transaction, each failing only alone. */
class GroupCommitTest extends DatabaseTestBase {

    private static final String MARK = "UPDATE notifications SET status = 'SENT' WHERE event_id = ?";

    private final AtomicInteger commits = new AtomicInteger();
    private final ExecutorService callers = Executors.newFixedThreadPool(64);
    private GroupCommit writes;

    @BeforeEach
    void writer() {
        JdbcTransactionManager counting = new JdbcTransactionManager(db.jdbc().getDataSource()) {
            @Override
            protected void doCommit(DefaultTransactionStatus status) {
                super.doCommit(status);
                commits.incrementAndGet();
            }
        };
        writes = new GroupCommit(db.jdbc().getDataSource(), new TransactionTemplate(counting), 200);
    }

    @AfterEach
    void close() {
        callers.shutdownNow();
        writes.close();
    }

    /**
     * Writes that queue while a transaction runs share the next one: 50 callers, 2 commits. The first
     * write is held up by a row lock so that the other 49 are certainly waiting when it commits.
     */
    @Test
    void shouldCommitTheWritesOfManyCallersTogether() throws Exception {
        UUID blocked = row();
        List<UUID> others = new ArrayList<>();
        for (int i = 0; i < 49; i++) {
            others.add(row());
        }
        commits.set(0);
        List<Future<?>> pending = new ArrayList<>();

        holdingALockOn(blocked, () -> {
            pending.add(callers.submit(() -> writes.write(new Statement(MARK, blocked))));
            await().until(() -> waitsForLock());
            others.forEach(id -> pending.add(callers.submit(() -> writes.write(new Statement(MARK, id)))));
            await().until(() -> writes.queued() == 49);
        });
        for (Future<?> write : pending) {
            write.get();
        }

        assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'SENT'")).isEqualTo(50);
        assertThat(commits.get()).as("transactions for 50 writes").isEqualTo(2);
    }

    /** A bad write in a shared transaction fails only its own caller; the others are retried alone and commit. */
    @Test
    void shouldFailOnlyTheBadWriteOfAGroup() throws Exception {
        UUID blocked = row();
        UUID good = row();
        List<Future<?>> pending = new ArrayList<>();

        holdingALockOn(blocked, () -> {
            pending.add(callers.submit(() -> writes.write(new Statement(MARK, blocked))));
            await().until(() -> waitsForLock());
            pending.add(callers.submit(() -> writes.write(new Statement(MARK, good))));
            pending.add(callers.submit(() -> writes.write(
                    new Statement("UPDATE notifications SET status = 'LOST' WHERE event_id = ?", good))));
            await().until(() -> writes.queued() == 2);
        });

        pending.get(0).get();
        pending.get(1).get();
        assertThatThrownBy(() -> pending.get(2).get()).hasMessageContaining("notifications_status_ck");
        assertThat(db.jdbc().queryForObject("SELECT status FROM notifications WHERE event_id = ?", String.class, good))
                .isEqualTo("SENT");
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
        GroupCommit unreachable = new GroupCommit(nowhere, new TransactionTemplate(new JdbcTransactionManager(nowhere)), 10);
        List<GroupCommit.Write> batch = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            batch.add(new GroupCommit.Write(List.of(new Statement(MARK, UUID.randomUUID())), new CompletableFuture<>()));
        }

        unreachable.runTogether(batch);

        assertThat(batch).allSatisfy(write -> assertThat(write.done()).isCompletedExceptionally());
        assertThat(connectionsAsked.get()).as("connections asked for").isEqualTo(1);
    }

    private void holdingALockOn(UUID eventId, Runnable meanwhile) {
        new TransactionTemplate(new DataSourceTransactionManager(db.jdbc().getDataSource())).executeWithoutResult(lock -> {
            db.jdbc().queryForList("SELECT id FROM notifications WHERE event_id = ? FOR UPDATE", eventId);
            meanwhile.run();
        });
    }

    private boolean waitsForLock() {
        return db.count("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND wait_event_type = 'Lock' AND query LIKE 'UPDATE notifications%'") == 1;
    }

    private UUID row() {
        UUID eventId = UUID.randomUUID();
        Timestamp now = new Timestamp(System.currentTimeMillis());
        db.jdbc().update("INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload,"
                + " created_at, updated_at, next_attempt_at) VALUES (?, 'EMAIL', 'SENDING', 1, 'u-1', 't-1', '{}', ?, ?, ?)",
                eventId, now, now, now);
        return eventId;
    }
}
