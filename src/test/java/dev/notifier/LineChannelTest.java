package dev.notifier;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.notifier.support.Events;
import dev.notifier.support.Peers;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The LINE channel against a real HTTP server speaking the Messaging API's push message contract:
 * the request, the bearer token, X-Line-Retry-Key derived from (eventId, LINE) alone, and what each
 * answer means for the row.
 */
class LineChannelTest extends PipelineTestBase {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String USER = "U4af4980629d0f5a7cd2bd8b86c5c2f01";

    @Test
    void shouldPushATextMessageToTheUserWithTheTokenAndTheEventsRetryKey() throws Exception {
        startNotifier();
        UUID eventId = send("th-TH", "[\"LINE\"]");

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(1));

        LoggedRequest request = only(peers.lineRequests());
        assertThat(request.getHeader("Authorization")).isEqualTo("Bearer " + Peers.LINE_TOKEN);
        assertThat(request.getHeader("Content-Type")).startsWith("application/json");
        assertThat(request.getHeader("X-Line-Retry-Key")).isEqualTo(retryKey(eventId));
        JsonNode body = JSON.readTree(request.getBodyAsString());
        assertThat(body.get("to").asText()).isEqualTo(USER);
        assertThat(body.get("messages").get(0).get("type").asText()).isEqualTo("text");
        assertThat(body.get("messages").get(0).get("text").asText()).startsWith("โอนเงินสำเร็จ ฿1,500.00")
                .contains("TRX-" + eventId.toString().substring(0, 8));
        // nothing else of the exchange went out as a header
        assertThat(request.getHeaders().keys()).noneMatch(name -> name.startsWith("Camel") || name.startsWith("kafka"));
        assertThat(db.notifications().get(0)).containsEntry("channel", "LINE").containsEntry("attempts", 1);
    }

    @Test
    void shouldPlanLineForARecipientWithALineUserIdWhenTheEventLeavesTheChannelsToUs() throws Exception {
        startNotifier();
        UUID eventId = send("en", null);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(3));

        assertThat(db.notifications()).extracting(row -> row.get("channel")).containsExactlyInAnyOrder("EMAIL", "PUSH", "LINE");
        assertThat(JSON.readTree(only(peers.lineRequests()).getBodyAsString()).get("messages").get(0).get("text").asText())
                .startsWith("Transfer completed: THB 1,500.00");
        assertThat(only(peers.lineRequests()).getHeader("X-Line-Retry-Key")).isEqualTo(retryKey(eventId));
    }

    @Test
    void shouldRetryWithTheSameKeyAndCountA409OnThatKeyAsDeliveredAcrossARestart() throws Exception {
        // LINE accepts the first request but its answer never arrives (longer than the read timeout);
        // the service stops; after the restart LINE says 409: it already accepted this retry key
        Map<String, String> settings = settings();
        settings.put("notifier.channel.line.read-timeout-millis", "500");
        peers.line.resetAll();
        answers(post(urlEqualTo(Peers.LINE_PATH)).inScenario("line").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(200).withFixedDelay(3000)).willSetStateTo("accepted"));
        answers(post(urlEqualTo(Peers.LINE_PATH)).inScenario("line").whenScenarioStateIs("accepted")
                .willReturn(aResponse().withStatus(409).withHeader("x-line-accepted-request-id", "req-1")
                        .withBody("{\"message\":\"The retry key is already accepted\"}")));
        startNotifier(settings);
        UUID eventId = send("en", "[\"LINE\"]");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(peers.lineRequests()).hasSize(1);
            assertThat(db.notifications().get(0)).containsEntry("status", "PENDING").containsEntry("attempts", 1);
        });
        notifier.close();
        notifier = null;

        startNotifier(settings);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(1));
        assertThat(peers.lineRequests()).hasSize(2)
                .allSatisfy(request -> assertThat(request.getHeader("X-Line-Retry-Key")).isEqualTo(retryKey(eventId)));
        assertThat(db.notifications().get(0)).containsEntry("attempts", 2);
        assertThat(db.jdbc().queryForList("SELECT outcome FROM notification_attempts WHERE event_id = ? ORDER BY attempt",
                String.class, eventId)).containsExactly("RETRY", "SENT");
    }

    @Test
    void shouldBackOffWhenRateLimitedAndThenDeliver() throws Exception {
        peers.line.resetAll();
        answers(post(urlEqualTo(Peers.LINE_PATH)).inScenario("limit").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(429).withBody("{\"message\":\"Too many requests\"}")).willSetStateTo("1"));
        answers(post(urlEqualTo(Peers.LINE_PATH)).inScenario("limit").whenScenarioStateIs("1")
                .willReturn(aResponse().withStatus(429).withBody("{\"message\":\"Too many requests\"}")).willSetStateTo("2"));
        answers(post(urlEqualTo(Peers.LINE_PATH)).inScenario("limit").whenScenarioStateIs("2")
                .willReturn(aResponse().withStatus(200).withBody("{\"sentMessages\":[]}")));
        Map<String, String> settings = settings();
        settings.put("notifier.delivery.retry-base-millis", "400");
        startNotifier(settings);
        UUID eventId = send("en", "[\"LINE\"]");

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(1));

        List<LoggedRequest> requests = peers.lineRequests();
        assertThat(requests).hasSize(3)
                .allSatisfy(request -> assertThat(request.getHeader("X-Line-Retry-Key")).isEqualTo(retryKey(eventId)));
        // each retry waited at least the first backoff step (base, jittered down to half at most)
        for (int i = 1; i < requests.size(); i++) {
            long waited = requests.get(i).getLoggedDate().getTime() - requests.get(i - 1).getLoggedDate().getTime();
            assertThat(waited).as("wait before attempt %d", i + 1).isGreaterThanOrEqualTo(200);
        }
        List<String> errors = db.jdbc().queryForList(
                "SELECT coalesce(error, '') FROM notification_attempts WHERE event_id = ? ORDER BY attempt", String.class, eventId);
        assertThat(errors).hasSize(3);
        assertThat(errors.subList(0, 2)).allSatisfy(error -> assertThat(error).contains("LINE answered HTTP 429"));
    }

    @Test
    void shouldFailAtOnceWhenLineRefusesTheUser() throws Exception {
        peers.line.resetAll();
        answers(post(urlEqualTo(Peers.LINE_PATH)).willReturn(aResponse().withStatus(400)
                .withBody("{\"message\":\"The property, 'to', in the request body is invalid (line: -, column: -)\"}")));
        startNotifier();
        send("en", "[\"LINE\"]");

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'FAILED'")).isEqualTo(1));

        Map<String, Object> row = db.notifications().get(0);
        assertThat(row).containsEntry("attempts", 1);
        assertThat((String) row.get("last_error")).startsWith("LINE answered HTTP 400: ").contains("'to'");
        assertThat(peers.lineRequests()).hasSize(1);
    }

    private UUID send(String locale, String channels) throws Exception {
        UUID eventId = UUID.randomUUID();
        TestKafka.send(topic, List.of(Events.record(topic, "k", Events.withLine(eventId, locale, USER, channels))));
        return eventId;
    }

    private void answers(MappingBuilder stub) {
        peers.line.stubFor(stub);
    }

    private static LoggedRequest only(List<LoggedRequest> requests) {
        assertThat(requests).hasSize(1);
        return requests.get(0);
    }

    /** The contract's X-Line-Retry-Key: UUID.nameUUIDFromBytes("<eventId>:LINE"), computed here independently. */
    private static String retryKey(UUID eventId) {
        return UUID.nameUUIDFromBytes((eventId + ":LINE").getBytes(StandardCharsets.UTF_8)).toString();
    }
}
