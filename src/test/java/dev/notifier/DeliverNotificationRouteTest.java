package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.delivery.NotificationKey;
import dev.notifier.event.EventParser;
import dev.notifier.event.TransferEvent;
import dev.notifier.support.AdvisedNotifier;
import dev.notifier.support.AdvisedRouteTestBase;
import dev.notifier.support.Events;
import dev.notifier.support.RecordingCommit;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.apache.camel.component.mock.MockEndpoint;
import org.junit.jupiter.api.Test;

/** The deliver-&lt;channel&gt; routes, reached through the real intake: one message per channel, and its outcome recorded. */
class DeliverNotificationRouteTest extends AdvisedRouteTestBase {

    @Test
    void shouldSendOneMessagePerChannel() throws Exception {
        UUID eventId = UUID.randomUUID();
        notifier.smtp().expectedMessageCount(1);
        notifier.smtp().message(0).body().isInstanceOf(MimeMessage.class);
        notifier.push().expectedMessageCount(1);
        notifier.push().expectedHeaderReceived("Idempotency-Key", eventId + ":PUSH");

        record(Events.json(eventId, "en-US", "[\"EMAIL\",\"PUSH\"]"));

        MockEndpoint.assertIsSatisfied(notifier.smtp(), notifier.push());
        MimeMessage email = notifier.smtp().getReceivedExchanges().get(0).getMessage().getBody(MimeMessage.class);
        assertThat(email.getAllRecipients()).extracting(Object::toString).containsExactly(Events.emailOf(eventId));
        await().untilAsserted(() -> {
            assertThat(row(eventId, "EMAIL")).containsEntry("status", "SENT");
            assertThat(row(eventId, "PUSH")).containsEntry("status", "SENT");
        });
    }

    @Test
    void shouldMarkFailedOnPermanentPushRejection() {
        UUID eventId = UUID.randomUUID();
        notifier.push().whenAnyExchangeReceived(e -> AdvisedNotifier.answer(e, 400, "{\"error\":\"unknown token\"}"));

        record(Events.json(eventId, "en-US", "[\"PUSH\"]"));

        await().untilAsserted(() -> assertThat(row(eventId, "PUSH"))
                .containsEntry("status", "FAILED")
                .containsEntry("attempts", 1)
                .hasEntrySatisfying("last_error", error -> assertThat((String) error).contains("400")));
    }

    @Test
    void shouldRetryTransientPushFailure() throws Exception {
        UUID eventId = UUID.randomUUID();
        // only the fast path may try, until the test has seen the row wait for its retry
        notifier.context().getRouteController().stopRoute("retry-due-notifications");
        notifier.push().whenExchangeReceived(1, e -> AdvisedNotifier.answer(e, 503, "busy"));

        record(Events.json(eventId, "en-US", "[\"PUSH\"]"));

        await().untilAsserted(() -> assertThat(row(eventId, "PUSH"))
                .containsEntry("status", "PENDING")
                .containsEntry("attempts", 1)
                .hasEntrySatisfying("last_error", error -> assertThat((String) error).contains("503")));

        notifier.context().getRouteController().startRoute("retry-due-notifications");

        await().untilAsserted(() -> assertThat(row(eventId, "PUSH"))
                .containsEntry("status", "SENT")
                .containsEntry("attempts", 2));
        assertThat(notifier.push().getReceivedExchanges())
                .extracting(e -> e.getMessage().getHeader("Idempotency-Key"))
                .containsExactly(eventId + ":PUSH", eventId + ":PUSH");
    }

    @Test
    void shouldNotSendWhenItsClaimWasTakenOverByAnotherSender() throws Exception {
        // regression (fault scenario 4): a claim that expired while its sender waited was taken
        // over by the next poll, and both senders sent
        UUID eventId = UUID.randomUUID();
        notifier.context().getRouteController().stopRoute("deliver-push");
        notifier.context().getRouteController().stopRoute("retry-due-notifications");
        record(Events.json(eventId, "en-US", "[\"PUSH\"]"));
        db.jdbc().update("UPDATE notifications SET status = 'SENDING', attempts = 2, claim_token = 'poller-B',"
                + " claimed_until = now() + interval '1 minute' WHERE event_id = ?", eventId);
        notifier.push().expectedMessageCount(0);
        notifier.push().setAssertPeriod(500);
        notifier.context().getRouteController().startRoute("deliver-push");

        // close to its end: the sender renews it first, fenced by its token, and finds it lost
        notifier.context().createProducerTemplate().sendBody("seda:deliver-push", claim(eventId, "stale-A"));

        notifier.push().assertIsSatisfied();
        assertThat(db.jdbc().queryForMap("SELECT status, claim_token FROM notifications WHERE event_id = ?", eventId))
                .containsEntry("status", "SENDING").containsEntry("claim_token", "poller-B");

        notifier.push().reset();
        notifier.push().whenAnyExchangeReceived(e -> AdvisedNotifier.answer(e, 200, "{}"));
        notifier.push().expectedMessageCount(1);
        notifier.context().createProducerTemplate().sendBody("seda:deliver-push", claim(eventId, "poller-B"));

        notifier.push().assertIsSatisfied();
        await().untilAsserted(() -> assertThat(db.jdbc().queryForObject(
                "SELECT status FROM notifications WHERE event_id = ?", String.class, eventId)).isEqualTo("SENT"));
    }

    @Test
    void shouldLeaveRowsToTheRetryPollerWhileTheSendersRouteIsStopped() throws Exception {
        notifier.context().getRouteController().stopRoute("deliver-push");
        notifier.push().whenAnyExchangeReceived(e -> AdvisedNotifier.answer(e, 200, "{}"));
        UUID eventId = UUID.randomUUID();

        record(Events.json(eventId, "en-US", "[\"PUSH\"]"));

        // handed back untried (intake did not wait for senders that are not running), and the poller
        // does not claim for a channel whose senders are stopped
        await().untilAsserted(() -> assertThat(row(eventId, "PUSH")).containsEntry("status", "PENDING")
                .containsEntry("attempts", 0));
        notifier.context().getRouteController().startRoute("deliver-push");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(row(eventId, "PUSH"))
                .containsEntry("status", "SENT").containsEntry("attempts", 1));
    }

    /** A claim by this token, close to its end, as a sender would hold it after waiting. */
    private ClaimedNotification claim(UUID eventId, String token) throws Exception {
        TransferEvent event = new EventParser(65_536).fromStored(db.jdbc().queryForObject(
                "SELECT payload FROM notifications WHERE event_id = ?", String.class, eventId));
        return new ClaimedNotification(new NotificationKey(eventId, dev.notifier.event.Channel.PUSH), event, null, 2, Instant.now(), token,
                Instant.now().plusSeconds(1));
    }

    private void record(String event) {
        assertThat(notifier.send(event, 1, RecordingCommit.counting()).getException()).isNull();
    }

    private Map<String, Object> row(UUID eventId, String channel) {
        return db.jdbc().queryForMap("SELECT status, attempts, last_error FROM notifications WHERE event_id = ? AND channel = ?",
                eventId, channel);
    }
}
