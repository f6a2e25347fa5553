package dev.notifier.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.notifier.NotifierApplication;
import dev.notifier.delivery.NotificationStates;
import dev.notifier.inbox.SchemaGuard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.camel.CamelContext;
import org.apache.camel.component.sql.DefaultSqlPrepareStatementStrategy;
import org.apache.camel.component.sql.SqlEndpoint;
import org.apache.camel.main.Main;
import org.apache.camel.processor.idempotent.jdbc.JdbcMessageIdRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The demo's H2 runs what production's PostgreSQL runs: the Flyway migration, the schema guard's
 * metadata reads, every {@code sql:} statement of the real routes, the delivery ledger's and the
 * inbox repository's SQL.
 * The application is started on H2 with its routes created but not started.
 */
class H2CompatibilityTest {

    private EmbeddedDatabase db;
    private Main main;

    @BeforeEach
    void startOnH2() {
        db = EmbeddedDatabase.create();
        main = NotifierApplication.newMain(Map.of(
                "camel.main.auto-startup", "false",
                "camel.component.kafka.lazy-start-producer", "true",
                "notifier.kafka.brokers", "127.0.0.1:1",
                "notifier.db.url", db.url(),
                "notifier.db.user", EmbeddedDatabase.USER));
        // migrates and runs the schema guard: it fails here if either does not work on H2
        main.start();
    }

    @AfterEach
    void stop() throws SQLException {
        main.stop();
        db.close();
    }

    @Test
    void shouldAcceptEverySqlStatementOfTheRoutes() throws SQLException {
        String postgresOnly = batchIntakeRoutes();
        List<String> routeStatements = context().getEndpoints().stream()
                .filter(SqlEndpoint.class::isInstance)
                .map(e -> ((SqlEndpoint) e).getQuery())
                .distinct()
                // the batch intake is PostgreSQL-only by design (RETURNING, unnest): the demo never runs it
                .filter(sql -> !postgresOnly.contains(sql.replace(":?", ":#").replaceAll("\\s+", " ").strip()))
                .toList();
        // the rows' transitions all live in NotificationStates; the per-event intake and the delivery
        // routes have no sql: endpoint of their own any more
        List<String> statements = new ArrayList<>(routeStatements);
        statements.addAll(NotificationStates.statements());
        assertThat(statements).as("statements to check").hasSizeGreaterThanOrEqualTo(10);

        List<String> rejected = new ArrayList<>();
        try (Connection connection = dataSource().getConnection()) {
            for (String statement : statements) {
                try (PreparedStatement ignored = connection.prepareStatement(jdbc(statement))) {
                    // parsed and bound to the schema
                } catch (SQLException e) {
                    rejected.add(statement + "\n  -> " + e.getMessage());
                }
            }
        }
        assertThat(rejected).as("statements H2 rejects").isEmpty();
    }

    private static String batchIntakeRoutes() {
        try {
            return (Files.readString(Path.of("routes/record-batch.camel.yaml"))
                    + Files.readString(Path.of("routes/consume-events-batch.camel.yaml"))).replaceAll("\\s+", " ");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void shouldRecordAnInboxKeyOnceAndForgetItOnRemove() {
        JdbcMessageIdRepository inbox = context().getRegistry()
                .lookupByNameAndType("inboxRepository", JdbcMessageIdRepository.class);

        assertThat(inbox.add("event-1")).isTrue();
        assertThat(inbox.add("event-1")).as("second add is a duplicate").isFalse();
        assertThat(inbox.contains("event-1")).isTrue();
        assertThat(inbox.remove("event-1")).isTrue();
        assertThat(inbox.contains("event-1")).isFalse();
        inbox.add("event-2");
        inbox.clear();
        assertThat(inbox.contains("event-2")).isFalse();
    }

    /**
     * Two consumers racing on one eventId: the loser's insert waits for the winner's transaction, as
     * on PostgreSQL. When the winner commits, the loser's insert affects no row: a clean duplicate.
     */
    @Test
    void shouldTreatTheLoserOfAnInboxRaceAsADuplicateWhenTheWinnerCommits() throws Exception {
        assertThat(loserOfARace(true)).isFalse();
    }

    /** When the winner rolls back, the loser records the event: nothing is lost to the race. */
    @Test
    void shouldLetTheLoserOfAnInboxRaceRecordTheEventWhenTheWinnerRollsBack() throws Exception {
        assertThat(loserOfARace(false)).isTrue();
    }

    /** What {@code add} returns to the second of two transactions adding the same key at once. */
    private boolean loserOfARace(boolean winnerCommits) throws Exception {
        JdbcMessageIdRepository inbox = context().getRegistry()
                .lookupByNameAndType("inboxRepository", JdbcMessageIdRepository.class);
        TransactionTemplate transaction = context().getRegistry()
                .lookupByNameAndType("transactionTemplate", TransactionTemplate.class);
        CountDownLatch winnerInserted = new CountDownLatch(1);
        CountDownLatch endWinner = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Boolean> winner = threads.submit(() -> transaction.execute(status -> {
                boolean added = inbox.add("event-raced");
                winnerInserted.countDown();
                awaitUninterruptibly(endWinner);
                if (!winnerCommits) {
                    status.setRollbackOnly();
                }
                return added;
            }));
            winnerInserted.await();
            Future<Boolean> loser = threads.submit(() -> inbox.add("event-raced"));
            // the loser has seen no committed key and is inserting, which waits for the winner
            await().atMost(Duration.ofSeconds(5)).until(() -> new JdbcTemplate(dataSource()).queryForObject(
                    "SELECT COUNT(*) FROM information_schema.sessions WHERE executing_statement LIKE 'INSERT INTO inbox%'",
                    Integer.class) == 1);
            endWinner.countDown();

            assertThat(winner.get(10, TimeUnit.SECONDS)).isTrue();
            return loser.get(10, TimeUnit.SECONDS);
        } finally {
            endWinner.countDown();
            threads.shutdownNow();
        }
    }

    @Test
    void shouldInsertANotificationOnlyOncePerEventAndChannel() throws SQLException {
        String insert = "INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload,"
                + " created_at, updated_at, next_attempt_at) VALUES ('0b9f3c1e-7a51-4c1e-9a43-2f1f5c9d8e01', ?,"
                + " 'PENDING', 0, 'u-1', 'TRX-1', '{}', now(), now(), now()) ON CONFLICT DO NOTHING";
        try (Connection connection = dataSource().getConnection();
             PreparedStatement statement = connection.prepareStatement(insert)) {
            statement.setString(1, "EMAIL");
            assertThat(statement.executeUpdate()).isEqualTo(1);
            assertThat(statement.executeUpdate()).as("same (event, channel)").isZero();
            statement.setString(1, "PUSH");
            assertThat(statement.executeUpdate()).as("same event, other channel").isEqualTo(1);
        }
    }

    @Test
    void shouldRefuseUniquenessOnEventIdAloneOnH2Too() throws SQLException {
        try (Connection connection = dataSource().getConnection()) {
            connection.createStatement().execute("CREATE UNIQUE INDEX notifications_event_only ON notifications (event_id)");
        }

        assertThatThrownBy(() -> SchemaGuard.check(dataSource()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("notifications_event_only");
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The statement as camel-sql hands it to JDBC: named parameters become {@code ?}. */
    private static String jdbc(String camelSql) throws SQLException {
        return new DefaultSqlPrepareStatementStrategy().prepareQuery(camelSql, true, null);
    }

    private CamelContext context() {
        return main.getCamelContext();
    }

    private DataSource dataSource() {
        return context().getRegistry().lookupByNameAndType("dataSource", DataSource.class);
    }
}
