package dev.notifier;

import dev.notifier.inbox.DeadLetter;
import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.inbox.RollbackIsFailure;
import dev.notifier.support.AdvisedNotifier;
import dev.notifier.support.AdvisedNotifier.PolledRecord;
import dev.notifier.support.Events;
import dev.notifier.support.RecordingCommit;
import dev.notifier.support.DatabaseTestBase;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.mock.MockEndpoint;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * consume-events-batch and record-batch: a poll's valid events in one inbox transaction, its
 * poison records to the DLQ, and each partition's offset committed only after both.
 */
class ConsumeEventsBatchRouteTest extends DatabaseTestBase {

    private Map<String, String> settings;

    @BeforeEach
    void createDatabase() {
        settings = AdvisedNotifier.settings(db);
        settings.put("notifier.kafka.batch", "true");
    }

    @Test
    void shouldDeadLetterAPoisonRecordAndCommitTheRestOfTheBatch() throws Exception {
        byte[] poison = "this is { not JSON".getBytes(StandardCharsets.UTF_8);
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        UUID c = UUID.randomUUID();
        try (AdvisedNotifier notifier = AdvisedNotifier.start(settings).startRoutes()) {
            // what the database and the DLQ held when an offset was committed
            RecordingCommit first = RecordingCommit.counting();
            RecordingCommit lastOfPartition0 = RecordingCommit.observing(() -> List.of(
                    db.count("SELECT count(*) FROM inbox"), db.count("SELECT count(*) FROM notifications"),
                    notifier.dlq().getReceivedCounter()));
            RecordingCommit lastOfPartition1 = RecordingCommit.counting();
            notifier.dlq().expectedMessageCount(1);

            Exchange batch = notifier.sendBatch(List.of(
                    new PolledRecord(0, 10, Events.json(a, "en", null), first),
                    new PolledRecord(0, 11, poison, RecordingCommit.counting()),
                    new PolledRecord(0, 12, Events.json(b, "th-TH", null), lastOfPartition0),
                    new PolledRecord(1, 20, Events.json(c, "en", "[\"PUSH\"]"), lastOfPartition1)));

            assertThat(batch.getException()).isNull();
            notifier.dlq().assertIsSatisfied();
            DeadLetter dead = notifier.dlq().getReceivedExchanges().get(0).getMessage().getBody(DeadLetter.class);
            assertThat(dead.value()).isEqualTo(poison);
            assertThat(dead.reason()).startsWith("not JSON");
            assertThat(dead.source()).isEqualTo(AdvisedNotifier.TOPIC + "-0@11");
            assertThat(lastOfPartition0.observed()).containsExactly(List.of(3, 5, 1));
            assertThat(lastOfPartition1.calls()).isEqualTo(1);
            assertThat(first.calls()).as("a partition is committed once, at its last record").isZero();
        }
        assertThat(db.channelsOf(c)).containsExactly("PUSH");
    }

    @Test
    void shouldRecordAnEventOnceWhenItComesTwiceInABatchAndAgainInTheNext() throws Exception {
        UUID eventId = UUID.randomUUID();
        String event = Events.json(eventId, "en", null);
        try (AdvisedNotifier notifier = AdvisedNotifier.start(settings).startRoutes()) {
            notifier.smtp().expectedMessageCount(1);
            notifier.push().expectedMessageCount(1);
            RecordingCommit second = RecordingCommit.counting();

            assertThat(notifier.sendBatch(List.of(new PolledRecord(0, 1, event, RecordingCommit.counting()),
                    new PolledRecord(2, 7, event, RecordingCommit.counting()))).getException()).isNull();
            assertThat(notifier.sendBatch(List.of(new PolledRecord(1, 3, event, second))).getException()).isNull();

            notifier.smtp().setAssertPeriod(500);
            notifier.push().setAssertPeriod(500);
            MockEndpoint.assertIsSatisfied(notifier.smtp(), notifier.push());
            assertThat(second.calls()).isEqualTo(1);
        }
        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM notifications WHERE event_id = ?", eventId)).isEqualTo(2);
    }

    @Test
    void shouldSkipAnOptedOutChannelOnlyWhenTheEventLeavesTheChannelsToUs() throws Exception {
        UUID derived = UUID.randomUUID();
        UUID explicit = UUID.randomUUID();
        try (AdvisedNotifier notifier = AdvisedNotifier.start(settings).startRoutes()) {
            db.optOut(Events.userIdOf(derived), "EMAIL");
            db.optOut(Events.userIdOf(explicit), "EMAIL");

            notifier.sendBatch(List.of(new PolledRecord(0, 1, Events.json(derived, "en", null), RecordingCommit.counting()),
                    new PolledRecord(0, 2, Events.json(explicit, "en", "[\"EMAIL\"]"), RecordingCommit.counting())));
        }
        assertThat(db.channelsOf(derived)).containsExactly("PUSH");
        assertThat(db.channelsOf(explicit)).containsExactly("EMAIL");
    }

    @Test
    void shouldCommitNothingAndPublishNothingWhenTheBatchTransactionFails() throws Exception {
        RecordingCommit commit = RecordingCommit.counting();
        try (AdvisedNotifier failing = AdvisedNotifier.start(settings)
                .advise("record-batch", a -> a.weaveById("insert-batch-notifications").after()
                        .throwException(new IllegalStateException("injected")))
                .startRoutes()) {
            Exchange batch = failing.sendBatch(List.of(
                    new PolledRecord(0, 1, Events.json(UUID.randomUUID(), "en", null), RecordingCommit.counting()),
                    new PolledRecord(0, 2, "not JSON", commit)));

            assertThat(batch.getException()).hasRootCauseMessage("injected");
            assertThat(failing.dlq().getReceivedCounter()).as("poison published before the retry").isZero();
        }
        assertThat(commit.calls()).isZero();
        assertThat(db.count("SELECT count(*) FROM inbox")).isZero();
        assertThat(db.count("SELECT count(*) FROM notifications")).isZero();
    }

    @Test
    void shouldReportASilentRollbackOfTheBatchAsAFailure() throws Exception {
        RecordingCommit commit = RecordingCommit.counting();
        try (AdvisedNotifier notifier = AdvisedNotifier.start(settings)
                .advise("record-batch", a -> a.weaveById("insert-batch-notifications").after().markRollbackOnly())
                .startRoutes()) {
            Exchange batch = notifier.sendBatch(List.of(
                    new PolledRecord(0, 1, Events.json(UUID.randomUUID(), "en", null), commit)));

            assertThat(batch.getException()).isInstanceOf(RollbackIsFailure.TransactionRolledBackException.class);
        }
        assertThat(commit.calls()).isZero();
        assertThat(db.count("SELECT count(*) FROM inbox")).isZero();
    }
}
