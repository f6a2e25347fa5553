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

    private void record(String event) {
        assertThat(notifier.send(event, 1, RecordingCommit.counting()).getException()).isNull();
    }

    private Map<String, Object> row(UUID eventId, String channel) {
        return db.jdbc().queryForMap("SELECT status, attempts, last_error FROM notifications WHERE event_id = ? AND channel = ?",
                eventId, channel);
    }
}
