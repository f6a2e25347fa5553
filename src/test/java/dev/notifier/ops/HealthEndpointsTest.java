package dev.notifier.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.ManagementPort;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.RunningNotifier;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Liveness and readiness on the management port, as an orchestrator probes them. */
class HealthEndpointsTest extends PipelineTestBase {

    @Test
    void shouldBeLiveAndReadyWhenKafkaTheDatabaseAndTheRoutesAreUp() throws Exception {
        ManagementPort port = new ManagementPort(startNotifier());

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(port.get("/health/ready").statusCode()).isEqualTo(200));
        HttpResponse<String> live = port.get("/health/live");
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).contains("\"status\":\"UP\"");
    }

    @Test
    void shouldStayLiveButNotReadyWhileTheDatabaseIsGone() throws Exception {
        ManagementPort port = new ManagementPort(startNotifier());
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(port.get("/health/ready").statusCode()).isEqualTo(200));

        db.dropWhileInUse();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            HttpResponse<String> ready = port.get("/health/ready");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).contains("\"status\":\"DOWN\"")
                    .contains("{\"id\":\"database\",\"state\":\"DOWN\",\"message\":\"SELECT 1 failed");
        });
        // a restart would not bring the database back: liveness stays up
        assertThat(port.get("/health/live").statusCode()).isEqualTo(200);
    }

    @Test
    void shouldNotBeReadyWhileTheKafkaIntakeRouteIsStopped() throws Exception {
        ManagementPort port = new ManagementPort(startNotifier());
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(port.get("/health/ready").statusCode()).isEqualTo(200));

        notifier.context().getRouteController().stopRoute("consume-events");

        HttpResponse<String> ready = port.get("/health/ready");
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(ready.body()).contains("{\"id\":\"route:consume-events\",\"state\":\"DOWN\"");
    }

    @Test
    void shouldNotBeReadyWhileKafkaIsUnreachable() throws Exception {
        var settings = settings();
        settings.put("notifier.kafka.brokers", "127.0.0.1:1");
        ManagementPort port = new ManagementPort(startNotifier(settings));

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            HttpResponse<String> ready = port.get("/health/ready");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).contains("{\"id\":\"consumer:consume-events\",\"state\":\"DOWN\"");
        });
        assertThat(port.get("/health/live").statusCode()).isEqualTo(200);
    }

    @Test
    void shouldRefuseToStartWhenTheManagementPortIsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            var settings = settings();
            settings.put("notifier.http.port", String.valueOf(taken.getLocalPort()));

            assertThatThrownBy(() -> RunningNotifier.start(settings))
                    .hasStackTraceContaining("Cannot listen on management port 127.0.0.1:" + taken.getLocalPort())
                    .hasStackTraceContaining("NOTIFIER_HTTP_PORT");
        }
    }
}
