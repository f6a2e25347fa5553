package dev.notifier;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.RunningNotifier;
import dev.notifier.support.TestKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** Stopping the service mid-stream and starting a new one loses nothing and duplicates no row. */
class RestartTest extends PipelineTestBase {

    private static final int EVENTS = 300;

    @Test
    void shouldLoseNothingWhenStoppedHardMidStreamAndRestarted() throws Exception {
        // a slow gateway keeps deliveries in flight when the stop comes
        peers.push.stubFor(post(urlEqualTo("/push")).willReturn(aResponse().withStatus(200).withFixedDelay(60)));
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            records.add(Events.record(topic, "TRX-" + i, Events.json(UUID.randomUUID(), "en", null)));
        }
        TestKafka.send(topic, records);
        Map<String, String> settings = settings();
        settings.put("camel.main.shutdown-timeout", "1");
        // a short claim, so the restarted instance takes over the stopped one's at once; every send's
        // timeouts fit in it (the start checks)
        settings.put("notifier.delivery.lease-seconds", "10");
        settings.put("notifier.smtp.timeout-millis", "500");
        settings.put("notifier.smtp.connection-wait-millis", "500");
        settings.put("camel.component.http.connection-request-timeout", "500");
        for (String channel : List.of("push", "line")) {
            settings.put("notifier.channel." + channel + ".connect-timeout-millis", "500");
            settings.put("notifier.channel." + channel + ".read-timeout-millis", "1500");
        }

        RunningNotifier first = RunningNotifier.start(settings);
        await().atMost(Duration.ofSeconds(60)).until(() -> sentCount() >= 40);
        first.close();
        int sentAtStop = sentCount();
        assertThat(sentAtStop).as("the stop came mid-stream").isLessThan(2 * EVENTS);

        startNotifier(settings);

        await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(2 * EVENTS));
        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(EVENTS);
        assertThat(db.count("SELECT count(*) FROM notifications")).isEqualTo(2 * EVENTS);
        assertThat(Set.copyOf(emailKeys())).hasSize(EVENTS);
        assertThat(Set.copyOf(acceptedPushKeys())).hasSize(EVENTS);
        // a re-send can only come from a claim taken over after the stop, with the same key
        for (String key : duplicates(acceptedPushKeys())) {
            UUID eventId = UUID.fromString(key.substring(0, key.indexOf(':')));
            assertThat(db.count("SELECT attempts FROM notifications WHERE event_id = ? AND channel = 'PUSH'", eventId))
                    .as("attempts of re-sent %s", key).isGreaterThan(1);
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(TestKafka.committedOffsets(group, topic)).isEqualTo(EVENTS));
    }
}
