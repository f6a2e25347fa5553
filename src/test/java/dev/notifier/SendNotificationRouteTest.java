package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.AdvisedNotifier;
import dev.notifier.support.AdvisedRouteTestBase;
import dev.notifier.support.Events;
import dev.notifier.support.RecordingCommit;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.component.seda.SedaEndpoint;
import org.junit.jupiter.api.Test;

/** send-notification, reached through the real intake: one message per channel, and its outcome recorded. */
class SendNotificationRouteTest extends AdvisedRouteTestBase {

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
        notifier.context().getRouteController().stopRoute("deliver-notification");
        notifier.context().getRouteController().stopRoute("retry-due-notifications");
        record(Events.json(eventId, "en-US", "[\"PUSH\"]"));
        db.jdbc().update("UPDATE notifications SET status = 'SENDING', attempts = 2, claim_token = 'poller-B',"
                + " claimed_until = now() + interval '1 minute' WHERE event_id = ?", eventId);
        Map<String, Object> key = Map.of("eventId", eventId, "channel", "PUSH");
        notifier.push().expectedMessageCount(0);
        notifier.push().setAssertPeriod(500);

        notifier.context().createProducerTemplate().sendBodyAndHeader("direct:send-notification", key, "claimToken", "stale-A");

        notifier.push().assertIsSatisfied();
        assertThat(db.jdbc().queryForMap("SELECT status, claim_token FROM notifications WHERE event_id = ?", eventId))
                .containsEntry("status", "SENDING").containsEntry("claim_token", "poller-B");

        notifier.push().reset();
        notifier.push().whenAnyExchangeReceived(e -> AdvisedNotifier.answer(e, 200, "{}"));
        notifier.push().expectedMessageCount(1);
        notifier.context().createProducerTemplate().sendBodyAndHeader("direct:send-notification", key, "claimToken", "poller-B");

        notifier.push().assertIsSatisfied();
        assertThat(db.jdbc().queryForObject("SELECT status FROM notifications WHERE event_id = ?", String.class, eventId))
                .isEqualTo("SENT");
    }

    @Test
    void shouldLeaveRowsToTheRetryPollerWhileTheSendersRouteIsStopped() throws Exception {
        notifier.context().getRouteController().stopRoute("deliver-notification");
        notifier.push().whenAnyExchangeReceived(e -> AdvisedNotifier.answer(e, 200, "{}"));
        UUID eventId = UUID.randomUUID();

        record(Events.json(eventId, "en-US", "[\"PUSH\"]"));

        // not queued for senders that are not running (and intake did not wait for them)
        assertThat(notifier.context().getEndpoint("seda:deliver", SedaEndpoint.class).getCurrentQueueSize()).isZero();
        // the poller takes the row once the fast path's time (notifier.delivery.fast-path-millis) is up
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(row(eventId, "PUSH"))
                .containsEntry("status", "SENT").containsEntry("attempts", 1));
    }

    private void record(String event) {
        assertThat(notifier.send(event, 1, RecordingCommit.counting()).getException()).isNull();
    }

    private Map<String, Object> row(UUID eventId, String channel) {
        return db.jdbc().queryForMap("SELECT status, attempts, last_error FROM notifications WHERE event_id = ? AND channel = ?",
                eventId, channel);
    }
}
