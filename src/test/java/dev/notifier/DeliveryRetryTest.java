package dev.notifier;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.SmtpSink;
import dev.notifier.support.TestKafka;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What the providers answer decides the row's fate: SENT, retried with the same key, or FAILED. */
class DeliveryRetryTest extends PipelineTestBase {

    @Test
    void shouldRetryPushAfterTwo503sWithTheSameIdempotencyKey() throws Exception {
        peers.push.resetAll();
        peers.push.stubFor(post(urlEqualTo("/push")).inScenario("flaky").whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(503)).willSetStateTo("once"));
        peers.push.stubFor(post(urlEqualTo("/push")).inScenario("flaky").whenScenarioStateIs("once")
                .willReturn(aResponse().withStatus(503)).willSetStateTo("twice"));
        peers.push.stubFor(post(urlEqualTo("/push")).inScenario("flaky").whenScenarioStateIs("twice")
                .willReturn(aResponse().withStatus(200)));
        startNotifier();
        UUID eventId = UUID.randomUUID();
        TestKafka.send(topic, List.of(Events.record(topic, "k", Events.json(eventId, "en", "[\"PUSH\"]"))));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(1));

        Map<String, Object> row = db.notifications().get(0);
        assertThat(row).containsEntry("status", "SENT").containsEntry("attempts", 3);
        assertThat(row.get("last_error")).isNull();
        assertThat(peers.pushes()).hasSize(3)
                .allSatisfy(request -> assertThat(request.getHeader("Idempotency-Key")).isEqualTo(eventId + ":PUSH"));
        assertThat(acceptedPushKeys()).containsExactly(eventId + ":PUSH");
    }

    @Test
    void shouldFailPushAtOnceOnA400() throws Exception {
        peers.push.resetAll();
        peers.push.stubFor(post(urlEqualTo("/push"))
                .willReturn(aResponse().withStatus(400).withBody("{\"error\":\"unknown device token\"}")));
        startNotifier();
        UUID eventId = UUID.randomUUID();
        TestKafka.send(topic, List.of(Events.record(topic, "k", Events.json(eventId, "en", "[\"PUSH\"]"))));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'FAILED'")).isEqualTo(1));

        Map<String, Object> row = db.notifications().get(0);
        assertThat(row).containsEntry("attempts", 1);
        assertThat((String) row.get("last_error")).contains("400").contains("unknown device token");
        assertThat(peers.pushes()).hasSize(1);
    }

    @Test
    void shouldRetryEmailWhileSmtpIsDownAndDeliverItOnceWhenItComesBack() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        var settings = settings();
        settings.put("notifier.smtp.port", String.valueOf(port));
        startNotifier(settings);
        UUID eventId = UUID.randomUUID();
        TestKafka.send(topic, List.of(Events.record(topic, "k", Events.json(eventId, "en", "[\"EMAIL\"]"))));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(db.notifications()).hasSize(1);
            Map<String, Object> row = db.notifications().get(0);
            assertThat(row).containsEntry("status", "PENDING");
            assertThat((int) row.get("attempts")).isGreaterThanOrEqualTo(2);
            assertThat((String) row.get("last_error")).containsIgnoringCase("connect");
        });
        GreenMail lateSmtp = new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        lateSmtp.start();
        try {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(1));
            assertThat(lateSmtp.getReceivedMessages()).hasSize(1);
            assertThat(lateSmtp.getReceivedMessages()[0].getMessageID()).isEqualTo("<" + eventId + ".email@notifier>");
        } finally {
            lateSmtp.stop();
        }
    }

    @Test
    void shouldFailEmailWhenTheServerRejectsTheRecipientForGood() throws Exception {
        try (SmtpSink smtp = SmtpSink.rejectingEveryRecipient()) {
            var settings = settings();
            settings.put("notifier.smtp.port", String.valueOf(smtp.port()));
            startNotifier(settings);
            UUID eventId = UUID.randomUUID();
            TestKafka.send(topic, List.of(Events.record(topic, "k", Events.json(eventId, "en", "[\"EMAIL\"]"))));

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'FAILED'")).isEqualTo(1));

            Map<String, Object> row = db.notifications().get(0);
            assertThat(row).containsEntry("attempts", 1);
            assertThat((String) row.get("last_error")).contains("550");
        }
    }
}
