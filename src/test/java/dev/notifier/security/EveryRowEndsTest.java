package dev.notifier.security;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.RecordedEvents;
import dev.notifier.support.TestKafka;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Every notification ends, SENT or FAILED with a reason, within a bounded number of attempts and a
 * bounded age; a failure no retry can change is FAILED at once; what a provider says is stored as one
 * clean line. On PostgreSQL, Kafka, and a real push gateway and SMTP server.
 */
class EveryRowEndsTest extends PipelineTestBase {

    @Test
    void shouldFailAfterTheLastAllowedAttemptWithTheSameKeyEachTime() throws Exception {
        peers.pushAnswers(503);
        UUID eventId = publishPushEvent();
        Map<String, String> settings = settings();
        settings.put("notifier.delivery.max-attempts", "3");

        startNotifier(settings);

        Map<String, Object> row = awaitFinal(eventId);
        assertThat(row.get("status")).isEqualTo("FAILED");
        assertThat(row.get("attempts")).isEqualTo(3);
        assertThat(row.get("last_error")).isEqualTo("gave up after 3 attempts (notifier.delivery.max-attempts):"
                + " push-primary did not take it: push gateway answered HTTP 503");
        assertThat(peers.pushes()).hasSize(3).allSatisfy(push ->
                assertThat(push.getHeader("Idempotency-Key")).isEqualTo(eventId + ":PUSH"));
    }

    @Test
    void shouldFailWhenTheNextRetryWouldComeAfterTheMaximumAge() throws Exception {
        peers.pushAnswers(503);
        UUID eventId = publishPushEvent();
        Map<String, String> settings = settings();
        settings.put("notifier.delivery.max-age", "2s");
        settings.put("notifier.delivery.retry-base-millis", "400");

        startNotifier(settings);

        Map<String, Object> row = awaitFinal(eventId);
        assertThat(row.get("status")).isEqualTo("FAILED");
        assertThat((String) row.get("last_error")).startsWith("gave up: a retry would come more than 2 s after the"
                + " notification was recorded (notifier.delivery.max-age): push-primary did not take it: push gateway answered HTTP 503");
        assertThat(peers.pushes()).hasSizeBetween(1, 4);
    }

    /** Recorded two days ago and never sent (the service was down that long): it is not sent now. */
    @Test
    void shouldExpireARowOlderThanTheMaximumAgeInsteadOfSendingIt() throws Exception {
        RecordedEvents recorded = new RecordedEvents(db);
        UUID eventId = recorded.record(Instant.now().minus(Duration.ofDays(2)), "[\"PUSH\"]", "PUSH");

        startNotifier();

        Map<String, Object> row = awaitFinal(eventId);
        assertThat(row.get("status")).isEqualTo("FAILED");
        assertThat(row.get("last_error")).isEqualTo("expired: not delivered within 24 h of being recorded"
                + " (notifier.delivery.max-age)");
        assertThat(peers.pushes()).isEmpty();
    }

    @Test
    void shouldFailAtOnceARowWhosePayloadNoLongerReads() throws Exception {
        RecordedEvents recorded = new RecordedEvents(db);
        UUID eventId = recorded.record(Instant.now(), "[\"PUSH\"]", "PUSH");
        recorded.update(eventId, "PUSH", "payload = ?", "{\"eventId\": broken");

        startNotifier();

        Map<String, Object> row = awaitFinal(eventId);
        assertThat(row.get("status")).isEqualTo("FAILED");
        assertThat(row.get("attempts")).isEqualTo(1);
        assertThat((String) row.get("last_error")).startsWith("stored event payload no longer parses");
        assertThat(peers.pushes()).isEmpty();
    }

    /** Recorded while SMTPUTF8 was on, sent after it was turned off: refused before the server is asked. */
    @Test
    void shouldFailAtOnceAnAddressTheMailClientWouldHaveToAlter() throws Exception {
        RecordedEvents recorded = new RecordedEvents(db);
        UUID eventId = recorded.record(Instant.now(), "[\"EMAIL\"]", "EMAIL");
        String payload = (String) recorded.row(eventId, "EMAIL").get("payload");
        recorded.update(eventId, "EMAIL", "payload = ?", payload.replaceFirst("\"email\":\"[^\"]+\"",
                "\"email\":\"s\u043Emchai@example.com\""));

        startNotifier();

        Map<String, Object> row = awaitFinal(eventId);
        assertThat(row.get("status")).isEqualTo("FAILED");
        assertThat(row.get("attempts")).isEqualTo(1);
        assertThat((String) row.get("last_error")).contains("non-ASCII").contains("notifier.smtp.utf8");
        assertThat(peers.emails()).isEmpty();
    }

    /** NUL (which PostgreSQL refuses), line breaks, a bidi override, megabytes: stored as one short clean line. */
    @Test
    void shouldStoreWhatAProviderSaysAsOneCleanLine() throws Exception {
        String hostile = "busy\u0000\r\nX-Injected: 1\u202E" + "y".repeat(2_000_000);
        peers.push.stubFor(post(urlEqualTo("/push")).willReturn(aResponse().withStatus(400).withBody(hostile)));
        UUID eventId = publishPushEvent();

        startNotifier();

        Map<String, Object> row = awaitFinal(eventId);
        String error = (String) row.get("last_error");
        assertThat(row.get("status")).isEqualTo("FAILED");
        assertThat(error).startsWith("push gateway answered HTTP 400: busy X-Injected: 1 yyy").hasSizeLessThanOrEqualTo(1000)
                .doesNotContain("\u0000", "\r", "\n", "\u202E");
        assertThat(db.jdbc().queryForObject("SELECT error FROM notification_attempts WHERE event_id = ?", String.class,
                eventId)).isEqualTo(error);
    }

    private UUID publishPushEvent() {
        UUID eventId = UUID.randomUUID();
        TestKafka.send(topic, List.of(Events.record(topic, "k", Events.json(eventId, "en", "[\"PUSH\"]"))));
        return eventId;
    }

    private Map<String, Object> awaitFinal(UUID eventId) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(db.count(
                "SELECT count(*) FROM notifications WHERE event_id = ? AND status IN ('SENT', 'FAILED')", eventId))
                .isEqualTo(1));
        return db.jdbc().queryForMap("SELECT status, attempts, last_error FROM notifications WHERE event_id = ?", eventId);
    }
}
