package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.event.ColumnLimits;
import dev.notifier.inbox.DeadLetter;
import dev.notifier.support.AdvisedNotifier;
import dev.notifier.support.ContractEvent;
import dev.notifier.support.AdvisedRouteTestBase;
import dev.notifier.support.Events;
import dev.notifier.support.RecordingCommit;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.mock.MockEndpoint;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** consume-events: the inbox or the DLQ, then the offset commit, then delivery. */
class ConsumeEventsRouteTest extends AdvisedRouteTestBase {

    @Test
    void shouldDropSecondDeliveryOfSameEvent() throws Exception {
        UUID eventId = UUID.randomUUID();
        String event = Events.json(eventId, "en-US", null);
        RecordingCommit first = RecordingCommit.counting();
        RecordingCommit second = RecordingCommit.counting();
        notifier.smtp().expectedMessageCount(1);
        notifier.push().expectedMessageCount(1);

        assertThat(notifier.send(event, 10, first).getException()).isNull();
        assertThat(notifier.send(event, 11, second).getException()).isNull();

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(
                db.count("SELECT count(*) FROM notifications WHERE event_id = ? AND status = 'SENT'", eventId))
                .isEqualTo(2));
        // and nothing more arrives afterwards
        notifier.smtp().setAssertPeriod(500);
        notifier.push().setAssertPeriod(500);
        MockEndpoint.assertIsSatisfied(notifier.smtp(), notifier.push());
        assertThat(db.count("SELECT count(*) FROM inbox WHERE message_id = ?", eventId.toString())).isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM notifications WHERE event_id = ?", eventId)).isEqualTo(2);
        assertThat(first.calls()).isEqualTo(1);
        assertThat(second.calls()).isEqualTo(1);
    }

    @Test
    void shouldSendInvalidRecordToDeadLetterRoute() throws Exception {
        byte[] notJson = "this is { not JSON".getBytes(StandardCharsets.UTF_8);
        // how many records the DLQ had received when the offset was committed
        RecordingCommit commit = RecordingCommit.observing(() -> notifier.dlq().getReceivedCounter());
        notifier.dlq().expectedMessageCount(1);

        assertThat(notifier.send(notJson, 7, commit).getException()).isNull();

        notifier.dlq().assertIsSatisfied();
        DeadLetter dead = notifier.dlq().getReceivedExchanges().get(0).getMessage().getBody(DeadLetter.class);
        assertThat(dead.value()).isEqualTo(notJson);
        assertThat(dead.reason()).isNotBlank().doesNotContain("\n", "\r");
        assertThat(dead.source()).isEqualTo(AdvisedNotifier.TOPIC + "-0@7");
        assertThat(db.count("SELECT count(*) FROM inbox")).isZero();
        assertThat(db.count("SELECT count(*) FROM notifications")).isZero();
        assertThat(commit.observed()).containsExactly(1);
    }

    /** Longer than notifications.transfer_id: it used to pass parsing and fail its insert on every redelivery. */
    @Test
    void shouldDeadLetterAnEventWhoseTransferIdIsLongerThanItsColumn() throws Exception {
        byte[] tooLong = ContractEvent.bytesWith(root -> root.put("transferId", "T".repeat(ColumnLimits.TRANSFER_ID + 1)));
        RecordingCommit commit = RecordingCommit.observing(() -> notifier.dlq().getReceivedCounter());
        notifier.dlq().expectedMessageCount(1);

        assertThat(notifier.send(tooLong, 8, commit).getException()).isNull();

        notifier.dlq().assertIsSatisfied();
        DeadLetter dead = notifier.dlq().getReceivedExchanges().get(0).getMessage().getBody(DeadLetter.class);
        assertThat(dead.value()).isEqualTo(tooLong);
        assertThat(dead.reason()).isEqualTo("transferId: longer than " + ColumnLimits.TRANSFER_ID + " characters");
        assertThat(db.count("SELECT count(*) FROM inbox")).isZero();
        assertThat(db.count("SELECT count(*) FROM notifications")).isZero();
        assertThat(commit.observed()).containsExactly(1);
    }

    /** With a transferId pattern as wide as the column: the default one stops at 64 characters. */
    @Test
    void shouldRecordAnEventWhoseIdsAreExactlyAsLongAsTheirColumns() throws Exception {
        notifier.close();
        java.util.Map<String, String> settings = AdvisedNotifier.settings(db);
        settings.put("notifier.event.transfer-id-pattern", "[A-Za-z0-9._:/-]{1,255}");
        notifier = AdvisedNotifier.start(settings).startRoutes();
        String transferId = "T".repeat(ColumnLimits.TRANSFER_ID);
        String userId = "u".repeat(ColumnLimits.USER_ID);
        byte[] event = ContractEvent.bytesWith(root -> {
            root.put("transferId", transferId);
            ContractEvent.recipientOf(root).put("userId", userId);
        });

        assertThat(notifier.send(event, 9, RecordingCommit.counting()).getException()).isNull();

        assertThat(db.jdbc().queryForList("SELECT DISTINCT transfer_id || '/' || user_id FROM notifications", String.class))
                .containsExactly(transferId + "/" + userId);
    }

    @Test
    void shouldCommitOffsetOnlyAfterTheInboxTransaction() {
        UUID eventId = UUID.randomUUID();
        // read through the test's own connection: only what the inbox transaction committed is visible
        RecordingCommit commit = RecordingCommit.observing(() -> new AtCommit(
                db.count("SELECT count(*) FROM inbox WHERE message_id = ?", eventId.toString()),
                db.count("SELECT count(*) FROM notifications WHERE event_id = ?", eventId),
                TransactionSynchronizationManager.isActualTransactionActive()));

        Exchange exchange = notifier.send(Events.json(eventId, "th-TH", null), 42, commit);

        assertThat(exchange.getException()).isNull();
        assertThat(commit.observed()).containsExactly(new AtCommit(1, 2, false));
    }

    @Test
    void shouldCommitOncePerPartitionAndPollAtItsLastRecord() {
        RecordingCommit earlier = RecordingCommit.counting();
        RecordingCommit last = RecordingCommit.counting();

        assertThat(notifier.send(Events.json(UUID.randomUUID(), "en", null), 1, earlier, false).getException()).isNull();
        assertThat(notifier.send("not JSON", 2, RecordingCommit.counting(), false).getException()).isNull();
        assertThat(notifier.send(Events.json(UUID.randomUUID(), "en", null), 3, last, true).getException()).isNull();

        assertThat(earlier.calls()).isZero();
        assertThat(last.calls()).isEqualTo(1);
    }

    /** What the offset commit could see of the event's inbox transaction. */
    private record AtCommit(int inboxRows, int notificationRows, boolean transactionOpen) {
    }
}
