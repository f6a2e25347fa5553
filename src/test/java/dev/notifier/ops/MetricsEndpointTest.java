package dev.notifier.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.event.Channel;
import dev.notifier.support.Events;
import dev.notifier.support.ManagementPort;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** /metrics in Prometheus' text format, with values that match what happened. */
class MetricsEndpointTest extends PipelineTestBase {

    @Test
    void shouldCountWhatHappenedInPrometheusFormat() throws Exception {
        peers.pushAnswers(503, 200);
        var settings = settings();
        // one consumer thread: no rebalance among our own consumers can hand a record over twice
        settings.put("notifier.kafka.consumers", "1");
        ManagementPort port = new ManagementPort(startNotifier(settings));
        String both = Events.json(UUID.randomUUID(), "th-TH", null);
        String emailOnly = Events.json(UUID.randomUUID(), "en", "[\"EMAIL\"]");
        TestKafka.send(topic, List.of(Events.record(topic, "a", both), Events.record(topic, "b", emailOnly),
                Events.record(topic, "b", emailOnly), Events.record(topic, "b", "not json")));

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(sentCount()).isEqualTo(3);
            Map<String, Double> metrics = scrape(port);
            assertThat(metrics).containsEntry("notifier_events_consumed_total", 4.0)
                    .containsEntry("notifier_events_duplicates_total", 1.0)
                    .containsEntry("notifier_dead_letters_total", 1.0)
                    .containsEntry("notifier_delivery_retries_total", 1.0)
                    .containsEntry("notifier_inbox_size", 2.0)
                    .containsEntry("notifier_delivery_latency_seconds_count{channel=\"EMAIL\"}", 2.0)
                    .containsEntry("notifier_delivery_latency_seconds_count{channel=\"PUSH\"}", 1.0);
            for (Channel channel : dev.notifier.event.ChannelCatalog.standard().channels()) {
                for (String status : NotificationCounts.STATUSES) {
                    assertThat(metrics.get("notifier_notifications{channel=\"" + channel + "\",status=\"" + status + "\"}"))
                            .as(channel + "/" + status)
                            .isEqualTo(db.count("SELECT count(*) FROM notifications WHERE channel = ? AND status = ?",
                                    channel.name(), status));
                }
            }
        });
        // what the peers saw agrees: one 503 (the retry) and one dead letter on the topic
        assertThat(peers.push.getAllServeEvents()).filteredOn(e -> e.getResponse().getStatus() == 503).hasSize(1);
        assertThat(TestKafka.readAll(dlqTopic, 1, Duration.ofSeconds(10))).hasSize(1);
        Map<String, Double> metrics = scrape(port);
        assertThat(metrics.get("notifier_delivery_latency_seconds_sum{channel=\"PUSH\"}")).isPositive();
        assertThat(metrics.keySet()).anyMatch(name -> name.startsWith("jvm_memory_used_bytes{"))
                .contains("process_uptime_seconds", "jvm_threads_live_threads");
    }

    /** Every sample line as "name{labels}" → value. */
    private static Map<String, Double> scrape(ManagementPort port) throws Exception {
        HttpResponse<String> response = port.get("/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        Map<String, Double> samples = new HashMap<>();
        response.body().lines().filter(line -> !line.startsWith("#") && !line.isBlank()).forEach(line -> {
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        });
        return samples;
    }
}
