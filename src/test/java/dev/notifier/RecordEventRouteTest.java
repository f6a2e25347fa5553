package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.inbox.RollbackIsFailure;
import dev.notifier.support.AdvisedNotifier;
import dev.notifier.support.Events;
import dev.notifier.support.RecordingCommit;
import dev.notifier.support.DatabaseTestBase;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** record-event: the inbox key and the notification rows commit together or not at all. */
class RecordEventRouteTest extends DatabaseTestBase {

    @Test
    void shouldRollBackInboxKeyAndRowsWhenAStepAfterTheInsertsFails() throws Exception {
        UUID eventId = UUID.randomUUID();
        String event = Events.json(eventId, "en-US", null);
        Map<String, String> settings = AdvisedNotifier.settings(db);
        settings.put("notifier.kafka.redeliveries", "0");
        AtomicReference<Map<String, Object>> insideTransaction = new AtomicReference<>();
        RecordingCommit failedCommit = RecordingCommit.counting();

        try (AdvisedNotifier failing = AdvisedNotifier.start(settings)
                .advise("record-event", a -> a.weaveById("insert-notifications").after()
                        .process(e -> insideTransaction.set(rowCounts(e.getContext())))
                        .throwException(new IllegalStateException("injected")))
                .startRoutes()) {
            Exchange exchange = failing.send(event, 5, failedCommit);

            assertThat(exchange.getException()).hasRootCauseInstanceOf(IllegalStateException.class).hasRootCauseMessage("injected");
        }

        // the inserts did happen, in the transaction that then rolled back
        assertThat(insideTransaction.get()).isEqualTo(Map.of("inbox", 1L, "notifications", 2L));
        assertThat(db.count("SELECT count(*) FROM inbox")).isZero();
        assertThat(db.count("SELECT count(*) FROM notifications")).isZero();
        assertThat(failedCommit.calls()).isZero();

        // redelivered to a fresh context on the same database: recorded as new, so the key is gone
        RecordingCommit commit = RecordingCommit.counting();
        try (AdvisedNotifier healthy = AdvisedNotifier.start(settings).startRoutes()) {
            assertThat(healthy.send(event, 5, commit).getException()).isNull();
        }
        assertThat(db.count("SELECT count(*) FROM inbox WHERE message_id = ?", eventId.toString())).isEqualTo(1);
        assertThat(db.jdbc().queryForList("SELECT channel FROM notifications WHERE event_id = ? ORDER BY channel",
                String.class, eventId)).containsExactly("EMAIL", "PUSH");
        assertThat(commit.calls()).isEqualTo(1);
    }

    @Test
    void shouldReportASilentRollbackAsAFailureSoTheOffsetIsNeverCommitted() throws Exception {
        // what a shutdown does to an in-flight transaction: rollback-only, no exception
        Map<String, String> settings = AdvisedNotifier.settings(db);
        settings.put("notifier.kafka.redeliveries", "0");
        RecordingCommit commit = RecordingCommit.counting();

        try (AdvisedNotifier notifier = AdvisedNotifier.start(settings)
                .advise("record-event", a -> a.weaveById("insert-notifications").after().markRollbackOnly())
                .startRoutes()) {
            Exchange exchange = notifier.send(Events.json(UUID.randomUUID(), "en-US", null), 9, commit);

            assertThat(exchange.getException()).isInstanceOf(RollbackIsFailure.TransactionRolledBackException.class);
            assertThat(exchange.isRollbackOnly()).isFalse();
        }
        assertThat(commit.calls()).isZero();
        assertThat(db.count("SELECT count(*) FROM inbox")).isZero();
        assertThat(db.count("SELECT count(*) FROM notifications")).isZero();
    }

    @Test
    void shouldSkipAnOptedOutChannelOnlyWhenTheEventLeavesTheChannelsToUs() throws Exception {
        UUID derived = UUID.randomUUID();
        UUID explicit = UUID.randomUUID();
        try (AdvisedNotifier notifier = AdvisedNotifier.start(db).startRoutes()) {
            db.optOut(Events.userIdOf(derived), "PUSH");
            db.optOut(Events.userIdOf(explicit), "PUSH");

            notifier.send(Events.json(derived, "en", null), 1, RecordingCommit.counting());
            notifier.send(Events.json(explicit, "en", "[\"EMAIL\",\"PUSH\"]"), 2, RecordingCommit.counting());
        }
        assertThat(db.channelsOf(derived)).containsExactly("EMAIL");
        assertThat(db.channelsOf(explicit)).containsExactly("EMAIL", "PUSH");
    }

    /** Counted on the route's own thread and pool, so inside its open transaction. */
    private static Map<String, Object> rowCounts(CamelContext context) {
        JdbcTemplate jdbc = new JdbcTemplate(context.getRegistry().lookupByNameAndType("dataSource", DataSource.class));
        return jdbc.queryForMap("SELECT (SELECT count(*) FROM inbox) AS inbox, (SELECT count(*) FROM notifications) AS notifications");
    }
}
