package dev.notifier.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.notifier.support.LogCapture;
import dev.notifier.support.ManagementPort;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.RawHttp;
import dev.notifier.support.RunningNotifier;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The management port as a bank exposes it: a Host allow-list against DNS rebinding, deny-by-default
 * auth, the headers a page with customers' data needs, failed logins slowed down per client, TLS, and
 * a refused request that is one WARN line.
 */
class ManagementPortExposureTest extends PipelineTestBase {

    private static final String PASSWORD = "correct horse battery staple";

    @TempDir
    Path dir;

    /** A page on evil.example that rebinds its name to 127.0.0.1 reaches a loopback port without a password: its Host gives it away. */
    @Test
    void shouldAnswerOnlyForItsOwnNamesEvenOnLoopbackWithoutAPassword() throws Exception {
        int port = portOf(startWith(Map.of("notifier.http.allowed-hosts", " notifier.bank.internal , ops.example.")));

        for (String path : List.of("/", "/api/summary", "/status.js", "/health/live", "/metrics")) {
            RawHttp.Response rebound = RawHttp.get(port, "evil.example:" + port, path);
            assertThat(rebound.status()).as("%s for a foreign Host", path).isEqualTo(421);
            assertThat(rebound.body()).doesNotContain("\"counts\"", "transferId");
        }
        assertThat(RawHttp.exchange(port, "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)).status())
                .as("no Host at all").isEqualTo(421);
        for (String host : List.of("localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "LocalHost",
                "notifier.bank.internal:" + port, "OPS.example")) {
            assertThat(RawHttp.get(port, host, "/api/summary").status()).as("Host %s", host).isEqualTo(200);
        }
    }

    @Test
    void shouldPutTheHeadersOfAPageWithCustomersDataOnEveryAnswer() throws Exception {
        int port = portOf(startWith(Map.of("notifier.http.password", PASSWORD)));

        for (String path : List.of("/", "/api/summary", "/status.js", "/health/ready", "/nothing-here")) {
            for (RawHttp.Response response : List.of(RawHttp.get(port, "localhost", path),
                    RawHttp.get(port, "localhost", path, basic("operator", PASSWORD)))) {
                assertThat(response.header("Cache-Control")).as(path).isEqualTo("no-store");
                assertThat(response.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
                assertThat(response.header("Content-Security-Policy")).as(path).contains("frame-ancestors 'none'");
                assertThat(response.header("Referrer-Policy")).as(path).isEqualTo("no-referrer");
            }
        }
        assertThat(RawHttp.get(port, "evil.example", "/").header("Cache-Control")).isEqualTo("no-store");
    }

    /** Deny by default: a path nobody listed, or one that walks out of /health, needs the password too. */
    @Test
    void shouldAskForThePasswordOnEveryPathButHealthAndMetrics() throws Exception {
        int port = portOf(startWith(Map.of("notifier.http.password", PASSWORD)));

        for (String path : List.of("/", "/api/summary", "/api/not-written-yet", "/anything", "/health/../api/summary",
                "/health/%2e%2e/api/summary", "/metrics/../api/summary", "//api/summary", "/METRICS")) {
            RawHttp.Response anonymous = RawHttp.get(port, "localhost", path);
            assertThat(anonymous.status()).as("%s without a password", path).isEqualTo(401);
            assertThat(anonymous.header("WWW-Authenticate")).as(path).startsWith("Basic realm=");
        }
        assertThat(RawHttp.get(port, "localhost", "/health/../api/summary", basic("operator", PASSWORD)).body())
                .contains("\"counts\"");
        for (String path : List.of("/health/live", "/health/ready", "/metrics")) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(RawHttp.get(port, "localhost", path).status()).as(path).isEqualTo(200));
        }
    }

    @Test
    void shouldLogFailedLoginsWithoutThePasswordAndSlowTheGuesserDown() throws Exception {
        int port = portOf(startWith(Map.of("notifier.http.password", PASSWORD)));
        int mark = LogCapture.mark();

        for (int attempt = 1; attempt <= 4; attempt++) {
            assertThat(RawHttp.get(port, "localhost", "/api/summary", basic("operator", "guess-number-" + attempt)).status())
                    .as("wrong password %d", attempt).isEqualTo(401);
        }
        // the fourth failure in a row: the client waits before its next password is even checked, the right one too
        RawHttp.Response throttled = RawHttp.get(port, "localhost", "/api/summary", basic("operator", PASSWORD));
        assertThat(throttled.status()).isEqualTo(429);
        assertThat(throttled.header("Retry-After")).isEqualTo("1");
        assertThat(throttled.body()).doesNotContain("\"counts\"");
        // health stays open meanwhile
        assertThat(RawHttp.get(port, "localhost", "/health/live").status()).isEqualTo(200);

        List<LogCapture.Entry> warnings = LogCapture.entriesSince(mark).stream()
                .filter(e -> e.logger().equals("dev.notifier.http")).toList();
        assertThat(warnings).hasSize(4).allSatisfy(e -> {
            assertThat(e.level()).isEqualTo(Level.WARN);
            assertThat(e.line()).contains("failed login from 127.0.0.1 as user 'operator' on /api/summary")
                    .doesNotContain("guess-number");
        });
        assertThat(warnings.get(3).line()).contains("4 in a row", "next try is checked in 1 s");

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                RawHttp.get(port, "localhost", "/api/summary", basic("operator", PASSWORD)).status()).isEqualTo(200));
        // a success forgets the failures: one more mistake is answered at once, not throttled
        assertThat(RawHttp.get(port, "localhost", "/api/summary", basic("operator", "typo")).status()).isEqualTo(401);
        assertThat(RawHttp.get(port, "localhost", "/api/summary", basic("operator", PASSWORD)).status()).isEqualTo(200);
    }

    @Test
    void shouldRefuseAnOversizedOrMalformedRequestWithOneWarnLine() throws Exception {
        int port = portOf(startWith(Map.of()));
        int mark = LogCapture.mark();

        RawHttp.Response oversized = RawHttp.exchange(port, withBody("GET /health/live", 300 * 1024));
        RawHttp.Response wrongMethod = RawHttp.exchange(port, withBody("POST /api/summary", 300 * 1024));
        RawHttp.Response badEscape = RawHttp.get(port, "localhost", "/api/events/%zz");

        assertThat(oversized.status()).isEqualTo(413);
        assertThat(wrongMethod.status()).isIn(405, 413);
        assertThat(badEscape.status()).isBetween(400, 404);
        assertThat(RawHttp.get(port, "localhost", "/health/live").status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(LogCapture.entriesSince(mark))
                .anySatisfy(e -> assertThat(e.line()).contains("refused GET /health/live from 127.0.0.1: 413")));
        List<LogCapture.Entry> logged = LogCapture.entriesSince(mark);
        assertThat(logged).noneSatisfy(e -> assertThat(e.level()).isEqualTo(Level.ERROR));
        assertThat(logged).filteredOn(e -> e.line().contains("/health/live")).hasSize(1)
                .allSatisfy(e -> assertThat(e.level()).isEqualTo(Level.WARN));
    }

    private static byte[] withBody(String requestLine, int bodyBytes) {
        byte[] head = (requestLine + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Length: " + bodyBytes + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[head.length + bodyBytes];
        System.arraycopy(head, 0, request, 0, head.length);
        return request;
    }

    @Test
    void shouldRefuseToStartWithAShortPasswordOrBeyondLoopbackInClear() {
        assertThatThrownBy(() -> startWith(Map.of("notifier.http.password", "elevenchars")))
                .hasStackTraceContaining("NOTIFIER_HTTP_PASSWORD is shorter than 12 characters");
        assertThatThrownBy(() -> startWith(Map.of("notifier.http.host", "0.0.0.0", "notifier.http.password", PASSWORD)))
                .hasStackTraceContaining("without TLS")
                .hasStackTraceContaining("NOTIFIER_HTTP_TLS_KEYSTORE")
                .hasStackTraceContaining("NOTIFIER_HTTP_INSECURE=true");
        assertThatThrownBy(() -> startWith(Map.of("notifier.http.host", "0.0.0.0", "notifier.http.password", PASSWORD,
                "notifier.http.tls-keystore", dir.resolve("missing.p12").toString(), "notifier.http.tls-password", "changeit")))
                .hasStackTraceContaining("not a readable file");
    }

    @Test
    void shouldServeTheWholePortOverTlsBeyondLoopback() throws Exception {
        Path keystore = dir.resolve("management.p12");
        String storePassword = "keystore-secret";
        generateKeystore(keystore, storePassword);
        RunningNotifier running = startWith(Map.of("notifier.http.host", "0.0.0.0", "notifier.http.password", PASSWORD,
                "notifier.http.tls-keystore", keystore.toString(), "notifier.http.tls-password", storePassword));
        ManagementPort tls = ManagementPort.trusting(running, keystore, storePassword);

        assertThat(running.managementUrl()).startsWith("https://");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(tls.get("/health/live").statusCode()).isEqualTo(200));
        HttpResponse<String> page = tls.get("/api/summary", "operator", PASSWORD);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("\"counts\"");
        assertThat(tls.get("/api/summary").statusCode()).isEqualTo(401);
        // the same port in clear answers nothing a browser would show
        assertThatThrownBy(() -> {
            RawHttp.Response clear = RawHttp.get(portOf(running), "localhost", "/api/summary", basic("operator", PASSWORD));
            assertThat(clear.body()).doesNotContain("\"counts\"");
            throw new IOException("answered in clear: " + clear.status());
        }).isInstanceOf(IOException.class);
    }

    private RunningNotifier startWith(Map<String, String> extra) throws Exception {
        Map<String, String> settings = settings();
        settings.putAll(extra);
        return startNotifier(settings);
    }

    private static int portOf(RunningNotifier running) {
        return URI.create(running.managementUrl()).getPort();
    }

    private static String basic(String user, String password) {
        return "Authorization: Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static void generateKeystore(Path keystore, String password) throws Exception {
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "notifier", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", password, "-keypass", password)
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor()).as(output).isZero();
        assertThat(Files.size(keystore)).isPositive();
    }
}
