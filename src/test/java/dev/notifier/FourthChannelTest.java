package dev.notifier;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * "The next channel costs one route file": SMS over an HTTP gateway, added from test resources only
 * (src/test/resources/fourth-channel: routes/send-sms.camel.yaml and templates/sms/) and configuration
 * lines; no schema change, no enum, no Java. It gets its rows per (event, channel), its own delivery
 * route and bulkhead, its address from the recipient field the configuration names, and its answers
 * read by the rules declared for it.
 */
class FourthChannelTest extends PipelineTestBase {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PHONE = "+66812345678";

    private WireMockServer sms;

    @BeforeEach
    void smsGateway() {
        sms = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
        sms.start();
        sms.stubFor(post(urlEqualTo("/sms")).willReturn(aResponse().withStatus(202)));
    }

    @AfterEach
    void stopSmsGateway() {
        sms.stop();
    }

    @Override
    protected Map<String, String> settings() {
        Map<String, String> settings = super.settings();
        settings.put("notifier.routes-location", "file:routes/*.camel.yaml,classpath:fourth-channel/routes/*.camel.yaml");
        settings.put("notifier.templates.location", "file:templates,classpath:fourth-channel/templates");
        settings.put("notifier.channels", "EMAIL,PUSH,LINE,SMS");
        settings.put("notifier.channel.sms.address", "phone");
        settings.put("notifier.channel.sms.provider", "SMS gateway");
        settings.put("notifier.channel.sms.delivered", "2xx");
        settings.put("notifier.channel.sms.retry", "429,5xx");
        settings.put("notifier.sms.url", "http://127.0.0.1:" + sms.port() + "/sms");
        return settings;
    }

    @Test
    void shouldDeliverANamedFourthChannelOncePerEventBesideEmail() throws Exception {
        startNotifier();
        UUID eventId = UUID.randomUUID();
        String json = withPhone(Events.json(eventId, "th-TH", "[\"EMAIL\",\"SMS\"]"));
        // delivered twice by Kafka: still one row and one message per (event, channel)
        TestKafka.send(topic, List.of(Events.record(topic, "k", json), Events.record(topic, "k", json)));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(2));

        assertThat(db.notifications()).extracting(row -> row.get("channel")).containsExactlyInAnyOrder("EMAIL", "SMS");
        List<LoggedRequest> requests = sms.findAll(postRequestedFor(urlEqualTo("/sms")));
        assertThat(requests).hasSize(1);
        assertThat(requests.get(0).getHeader("Idempotency-Key")).isEqualTo(eventId + ":SMS");
        JsonNode body = JSON.readTree(requests.get(0).getBodyAsString());
        assertThat(body.get("to").asText()).isEqualTo(PHONE);
        assertThat(body.get("text").asText()).startsWith("โอนเงิน TRX-").contains("฿1,500.00");
        assertThat(peers.emails()).hasSize(1);
        assertThat(notifier.context().getRoute("deliver-sms")).isNotNull();
    }

    @Test
    void shouldPlanItFromTheRecipientsAddressAndReadItsAnswersByItsOwnRules() throws Exception {
        sms.resetAll();
        sms.stubFor(post(urlEqualTo("/sms")).willReturn(aResponse().withStatus(422).withBody("{\"error\":\"not a mobile number\"}")));
        startNotifier();
        UUID eventId = UUID.randomUUID();
        TestKafka.send(topic, List.of(Events.record(topic, "k", withPhone(Events.json(eventId, "en", null)))));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'SENT'")).isEqualTo(2);
            assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'FAILED'")).isEqualTo(1);
        });
        Map<String, Object> failed = db.jdbc().queryForMap("SELECT channel, attempts, last_error FROM notifications"
                + " WHERE status = 'FAILED'");
        assertThat(failed).containsEntry("channel", "SMS").containsEntry("attempts", 1);
        assertThat((String) failed.get("last_error")).isEqualTo("SMS gateway answered HTTP 422: {\"error\":\"not a mobile number\"}");
    }

    @Test
    void shouldDeadLetterAnEventNamingTheChannelWithoutItsAddress() throws Exception {
        startNotifier();
        TestKafka.send(topic, List.of(Events.record(topic, "k", Events.json(UUID.randomUUID(), "en", "[\"SMS\"]"))));

        var dead = TestKafka.readAll(dlqTopic, 1, Duration.ofSeconds(30));

        assertThat(dead).hasSize(1);
        assertThat(new String(dead.get(0).headers().lastHeader("notifier-error").value()))
                .contains("SMS").contains("recipient.phone");
        assertThat(db.notifications()).isEmpty();
    }

    @Test
    void shouldRefuseToStartWithAChannelThatHasNoRoute() {
        Map<String, String> settings = settings();
        settings.put("notifier.routes-location", "file:routes/*.camel.yaml");

        assertThatThrownBy(() -> startNotifier(settings)).hasStackTraceContaining(
                "channel SMS is in notifier.channels but no route has id send-sms (routes/send-sms.camel.yaml");
    }

    @Test
    void shouldRefuseToStartWithAChannelThatHasNoTemplate() {
        Map<String, String> settings = settings();
        settings.put("notifier.templates.location", "file:templates");

        assertThatThrownBy(() -> startNotifier(settings)).hasStackTraceContaining("template sms/en/request.json cannot be used");
    }

    private static String withPhone(String json) {
        return json.replace("\"pushToken\":", "\"phone\":\"" + PHONE + "\",\"pushToken\":");
    }
}
