package dev.notifier.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.Events;
import dev.notifier.support.ManagementPort;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.RunningNotifier;
import dev.notifier.support.TestKafka;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The management port shows customers' transfers: loopback by default, a password for the page and
 * its API, health and metrics open but saying nothing about a customer or the database's internals.
 */
class ManagementPortSecurityTest extends PipelineTestBase {

    private static final String PASSWORD = "correct horse battery staple";

    /** One start for every path (starting the service is what costs here), bound beyond loopback, which a password allows. */
    @Test
    void shouldAskForThePasswordOnThePageAndItsApiButLeaveHealthAndMetricsOpen() throws Exception {
        // a TLS proxy in front terminates TLS (ManagementPortExposureTest serves TLS itself)
        ManagementPort port = new ManagementPort(startWith(Map.of("notifier.http.host", "0.0.0.0",
                "notifier.http.password", PASSWORD, "notifier.http.insecure", "true")));

        for (String path : List.of("/", "/status.js", "/api/summary", "/api/events/0b9f3c1e-7a51-4c1e-9a43-2f1f5c9d8e01")) {
            HttpResponse<String> anonymous = port.get(path);
            assertThat(anonymous.statusCode()).as("%s without a password", path).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("WWW-Authenticate")).as(path)
                    .hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
            assertThat(port.get(path, "operator", "wrong").statusCode()).as("%s, wrong password", path).isEqualTo(401);
            assertThat(port.get(path, "admin", PASSWORD).statusCode()).as("%s, wrong user", path).isEqualTo(401);
            assertThat(port.get(path, "operator", PASSWORD).statusCode()).as("%s, the operator", path).isIn(200, 404);
        }
        // probes and scrapers have no password
        for (String path : List.of("/health/live", "/health/ready", "/metrics")) {
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(port.get(path).statusCode()).as("%s without a password", path).isEqualTo(200));
        }
    }

    @Test
    void shouldListenOnLoopbackOnlyByDefault() throws Exception {
        Optional<InetAddress> external = nonLoopbackAddress();
        assumeThat(external).as("this machine has a non-loopback IPv4 address").isPresent();
        RunningNotifier running = startWith(Map.of());
        int port = URI.create(running.managementUrl()).getPort();

        assertThat(new ManagementPort(running).get("/health/live").statusCode()).isEqualTo(200);
        assertThatThrownBy(() -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(external.get(), port), 2_000);
            }
        }).isInstanceOf(ConnectException.class);
    }

    @Test
    void shouldRefuseToListenBeyondLoopbackWithoutAPassword() {
        assertThatThrownBy(() -> startWith(Map.of("notifier.http.host", "0.0.0.0")))
                .hasStackTraceContaining("Refusing to start")
                .hasStackTraceContaining("NOTIFIER_HTTP_PASSWORD");
    }

    @Test
    void shouldMaskNamesAndAddressesOnThePage() throws Exception {
        UUID eventId = UUID.randomUUID();
        TestKafka.send(topic, List.of(Events.record(topic, "k", Events.json(eventId, "th-TH", "[\"EMAIL\"]"))));
        ManagementPort port = new ManagementPort(startWith(Map.of("notifier.http.password", PASSWORD)));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(1));

        String summary = port.get("/api/summary", "operator", PASSWORD).body();
        String history = port.get("/api/events/" + eventId, "operator", PASSWORD).body();

        assertThat(summary).contains("\"recipientName\":\"ส*** ใ***\"").doesNotContain("สมชาย", Events.emailOf(eventId));
        assertThat(history).contains("\"name\":\"ส*** ใ***\"").doesNotContain("สมชาย", Events.emailOf(eventId));
    }

    @Test
    void shouldNotShowTheDatabasesOwnWordsOnTheOpenHealthUrl() throws Exception {
        ManagementPort port = new ManagementPort(startWith(Map.of()));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(port.get("/health/ready").statusCode()).isEqualTo(200));

        db.dropWhileInUse();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            HttpResponse<String> ready = port.get("/health/ready");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).contains("\"id\":\"database\",\"state\":\"DOWN\"")
                    .doesNotContain(db.name(), "FATAL", "postgres", "5432");
        });
    }

    private RunningNotifier startWith(Map<String, String> extra) throws Exception {
        Map<String, String> settings = settings();
        settings.putAll(extra);
        return startNotifier(settings);
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws Exception {
        for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (network.isUp() && !network.isLoopback()) {
                for (InetAddress address : Collections.list(network.getInetAddresses())) {
                    if (address instanceof Inet4Address) {
                        return Optional.of(address);
                    }
                }
            }
        }
        return Optional.empty();
    }
}
