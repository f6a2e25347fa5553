package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.inbox.RollbackIsFailure;
import dev.notifier.support.AdvisedNotifier;
import dev.notifier.support.AdvisedNotifier.PolledRecord;
import dev.notifier.support.Events;
import dev.notifier.support.RecordingCommit;
import dev.notifier.support.DatabaseTestBase;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.camel.Exchange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * intake-error-handling: a record whose inbox transaction fails is retried in place, with backoff,
 * up to {@code notifier.kafka.redeliveries} times, before the failure goes back to the consumer
 * (which then polls the record again). The failure happens inside the transacted route that
 * {@code recordEventOrFail} / {@code recordBatchOrFail} call, whose own error handler has already
 * given up on the exchange; the intake route's policy must still apply.
 *
 * <p>The failure is the database's own: a trigger on {@code inbox} raises an error for the first
 * {@code n} insert statements. It counts statements with a sequence, which a rollback does not
 * undo, so the count is the number of attempts, failed ones included.
 */
class IntakeRedeliveryRouteTest extends DatabaseTestBase {

    private static final int REDELIVERIES = 3;

    private Map<String, String> settings;

    @BeforeEach
    void createDatabase() {
        settings = AdvisedNotifier.settings(db);
        settings.put("notifier.kafka.redeliveries", String.valueOf(REDELIVERIES));
    }

    @Test
    void shouldRedeliverAFailedInboxTransactionInPlaceAndThenRecordTheEvent() throws Exception {
        UUID eventId = UUID.randomUUID();
        RecordingCommit commit = RecordingCommit.counting();
        try (AdvisedNotifier notifier = AdvisedNotifier.start(settings).startRoutes()) {
            failFirstInboxInserts(2);

            Exchange exchange = notifier.send(Events.json(eventId, "en", null), 3, commit);

            assertThat(exchange.getException()).isNull();
            assertThat(exchange.getMessage().getHeader(Exchange.REDELIVERY_COUNTER, Integer.class)).isEqualTo(2);
        }
        assertThat(inboxInsertAttempts()).isEqualTo(3);
        assertThat(db.count("SELECT count(*) FROM inbox WHERE message_id = ?", eventId.toString())).isEqualTo(1);
        assertThat(db.channelsOf(eventId)).containsExactly("EMAIL", "PUSH");
        assertThat(commit.calls()).isEqualTo(1);
    }

    @Test
    void shouldHandTheFailureBackToTheConsumerOnceRedeliveriesAreExhausted() throws Exception {
        RecordingCommit commit = RecordingCommit.counting();
        try (AdvisedNotifier notifier = AdvisedNotifier.start(settings).startRoutes()) {
            failFirstInboxInserts(REDELIVERIES + 1);

            Exchange exchange = notifier.send(Events.json(UUID.randomUUID(), "en", null), 4, commit);

            assertThat(exchange.getException()).hasStackTraceContaining("injected inbox failure");
        }
        assertThat(inboxInsertAttempts()).isEqualTo(REDELIVERIES + 1);
        assertThat(db.count("SELECT count(*) FROM inbox")).isZero();
        assertThat(db.count("SELECT count(*) FROM notifications")).isZero();
        assertThat(commit.calls()).isZero();
    }

    @Test
    void shouldStillReportASilentRollbackAsAFailureWhenRedeliveriesAreAllowed() throws Exception {
        // what a shutdown does to an in-flight transaction, here on every attempt
        settings.put("notifier.kafka.redeliveries", "1");
        AtomicInteger attempts = new AtomicInteger();
        RecordingCommit commit = RecordingCommit.counting();
        try (AdvisedNotifier notifier = AdvisedNotifier.start(settings)
                .advise("record-event", a -> a.weaveById("insert-notifications").after()
                        .process(e -> attempts.incrementAndGet()).markRollbackOnly())
                .startRoutes()) {
            Exchange exchange = notifier.send(Events.json(UUID.randomUUID(), "en", null), 5, commit);

            assertThat(exchange.getException()).isInstanceOf(RollbackIsFailure.TransactionRolledBackException.class);
        }
        assertThat(attempts).hasValue(2);
        assertThat(db.count("SELECT count(*) FROM inbox")).isZero();
        assertThat(db.count("SELECT count(*) FROM notifications")).isZero();
        assertThat(commit.calls()).isZero();
    }

    @Test
    void shouldRedeliverAFailedBatchTransactionInPlaceAndThenRecordTheBatch() throws Exception {
        settings.put("notifier.kafka.batch", "true");
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        RecordingCommit commit = RecordingCommit.counting();
        try (AdvisedNotifier notifier = AdvisedNotifier.start(settings).startRoutes()) {
            failFirstInboxInserts(2);

            Exchange batch = notifier.sendBatch(List.of(
                    new PolledRecord(0, 1, Events.json(a, "en", null), RecordingCommit.counting()),
                    new PolledRecord(0, 2, Events.json(b, "th-TH", "[\"PUSH\"]"), commit)));

            assertThat(batch.getException()).isNull();
        }
        assertThat(inboxInsertAttempts()).isEqualTo(3);
        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(2);
        assertThat(db.channelsOf(a)).containsExactly("EMAIL", "PUSH");
        assertThat(db.channelsOf(b)).containsExactly("PUSH");
        assertThat(commit.calls()).isEqualTo(1);
    }

    /** After the application migrated the schema: the first {@code failures} inbox inserts fail. */
    private void failFirstInboxInserts(int failures) {
        db.jdbc().execute("CREATE SEQUENCE inbox_insert_attempts");
        db.jdbc().execute("""
                CREATE FUNCTION fail_first_inbox_inserts() RETURNS trigger AS $$
                BEGIN
                    IF nextval('inbox_insert_attempts') <= %d THEN
                        RAISE EXCEPTION 'injected inbox failure';
                    END IF;
                    RETURN NULL;
                END $$ LANGUAGE plpgsql""".formatted(failures));
        db.jdbc().execute("CREATE TRIGGER fail_first_inbox_inserts BEFORE INSERT ON inbox"
                + " FOR EACH STATEMENT EXECUTE FUNCTION fail_first_inbox_inserts()");
    }

    /** Every inbox insert statement so far, failed or not (a sequence is not rolled back). */
    private int inboxInsertAttempts() {
        return db.count("SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM inbox_insert_attempts");
    }
}
