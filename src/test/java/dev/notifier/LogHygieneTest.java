package dev.notifier;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.event.Mask;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.ContractEvent;
import dev.notifier.support.Events;
import dev.notifier.support.LogCapture;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The real service with every secret set, fed a valid event and poison ones built to make a reason
 * quote an address or a token: no log line may carry an email address, a push token, the SMTP
 * password or the gateway's bearer token.
 */
class LogHygieneTest extends PipelineTestBase {

    private final String smtpPassword = "smtp-pw-" + UUID.randomUUID();
    private final String bearerToken = "bearer-" + UUID.randomUUID();
    private final String email = "somchai.jaidee@example.com";
    private final String pushToken = "devtoken" + UUID.randomUUID().toString().replace("-", "");

    @Test
    void shouldMaskAddressesAndTokensAndNeverLogSecrets() throws Exception {
        peers.smtp.setUser("notifier@example.com", "notifier", smtpPassword);
        // a gateway that quotes the token it rejects: the FAILED reason must not
        peers.push.stubFor(post(urlEqualTo("/push")).willReturn(aResponse().withStatus(400)
                .withBody("{\"error\":\"unknown device token " + pushToken + "\"}")));
        UUID valid = UUID.randomUUID();
        TestKafka.send(topic, List.of(
                record("valid", event(valid, email)),
                record("display-name", event(UUID.randomUUID(), "Somchai <" + email + ">")),
                record("double-at", event(UUID.randomUUID(), email.replace("@", "@@"))),
                record("unquoted-token", "{\"eventId\":\"" + UUID.randomUUID() + "\",\"recipient\":{\"pushToken\":"
                        + pushToken + "}}")));
        Map<String, String> settings = settings();
        settings.put("notifier.smtp.user", "notifier");
        settings.put("notifier.smtp.password", smtpPassword);
        settings.put("notifier.channel.push.token", bearerToken);
        int mark = LogCapture.mark();

        startNotifier(settings);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(db.notifications())
                .extracting(row -> row.get("channel") + " " + row.get("status"))
                .containsExactlyInAnyOrder("EMAIL SENT", "PUSH FAILED"));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(TestKafka.committedOffsets(group, topic)).isEqualTo(4));
        List<String> lines = LogCapture.since(mark);
        // the lines that would have leaked were written, masked
        assertThat(lines).anyMatch(line -> line.contains("event " + valid + " channel EMAIL -> SENT"));
        assertThat(lines).anyMatch(line -> line.contains("channel PUSH -> FAILED") && line.contains("unknown device token " + Mask.pushToken(pushToken)));
        assertThat(lines).anyMatch(line -> line.contains("dead-lettering") && line.contains("'Somchai <s***@example.com>'"));
        assertThat(lines).anyMatch(line -> line.contains("dead-lettering") && line.contains("'s***' holds more than one '@'"));
        assertThat(lines).anyMatch(line -> line.contains("dead-lettering") && line.contains("Unrecognized token of 40 characters"));
        // every line about one notification carries its event and channel as fields of their own (JSON logs);
        // a record that never became an event carries none, not the one before it
        List<LogCapture.Entry> entries = LogCapture.entriesSince(mark);
        assertThat(entries).filteredOn(e -> e.line().contains("event " + valid + " channel EMAIL -> SENT")).isNotEmpty()
                .allSatisfy(e -> assertThat(e.mdc()).containsEntry("eventId", valid.toString()).containsEntry("channel", "EMAIL"));
        assertThat(entries).filteredOn(e -> e.line().contains("dead-lettering")).hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(e -> assertThat(e.mdc()).doesNotContainKeys("eventId", "channel"));
        for (String secret : List.of(email, "jaidee@", pushToken, smtpPassword, bearerToken)) {
            assertThat(lines).as("log lines holding %s", secret).noneMatch(line -> line.contains(secret));
        }
    }

    private String event(UUID eventId, String address) {
        return new String(ContractEvent.bytesWith(root -> {
            root.put("eventId", eventId.toString());
            ContractEvent.recipientOf(root).put("email", address).put("pushToken", pushToken);
        }), StandardCharsets.UTF_8);
    }

    private ProducerRecord<byte[], byte[]> record(String key, String json) {
        return Events.record(topic, key, json);
    }
}
