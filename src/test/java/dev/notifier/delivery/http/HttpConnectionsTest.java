package dev.notifier.delivery.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpServer;
import dev.notifier.delivery.SendDeadline;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP providers' connections, against a real HTTP server: a request is not written when its
 * answer could not come before the send's deadline, and a pooled connection carries the deadline of
 * each send that uses it, cutting off an answer dripped a byte at a time.
 */
class HttpConnectionsTest {

    private final AtomicInteger requests = new AtomicInteger();
    private HttpServer server;
    private CloseableHttpClient client;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.createContext("/quick", exchange -> {
            requests.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("{}".getBytes());
            exchange.close();
        });
        server.createContext("/drip", exchange -> {
            requests.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, 0);
            OutputStream body = exchange.getResponseBody();
            try {
                while (true) {
                    // a byte every 100 ms, each well within the client's 1 s read timeout: the slowness under test
                    Thread.sleep(100);
                    body.write(' ');
                    body.flush();
                }
            } catch (IOException | InterruptedException e) {
                exchange.close();
            }
        });
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        client = HttpClients.custom().setConnectionManager(HttpConnections.pool(2, 10))
                .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofSeconds(1)).build())
                .disableAutomaticRetries().build();
    }

    @AfterEach
    void stop() throws IOException {
        SendDeadline.current().ifPresent(SendDeadline::close);
        client.close();
        server.stop(0);
    }

    @Test
    void shouldNotWriteARequestWhoseAnswerCouldNotComeBeforeTheDeadline() throws Exception {
        Throwable tooLate;
        try (SendDeadline deadline = SendDeadline.start(Instant.now().plusMillis(500))) {
            tooLate = catchThrowable(() -> get("/quick"));
        }
        try (SendDeadline deadline = SendDeadline.start(Instant.now().plusSeconds(30))) {
            get("/quick");
        }

        assertThat(tooLate).isInstanceOf(SendDeadline.TooLateToSend.class).hasMessageContaining("request not sent");
        assertThat(requests).as("requests the server received").hasValue(1);
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldCutOffAnAnswerDrippedOverAPooledConnectionAtThatSendsDeadline() throws Exception {
        try (SendDeadline first = SendDeadline.start(Instant.now().plusSeconds(30))) {
            get("/quick");
        }
        // the same pooled connection, a later send with its own deadline
        Throwable cutOff;
        long started = System.nanoTime();
        try (SendDeadline second = SendDeadline.start(Instant.now().plusMillis(1500))) {
            cutOff = catchThrowable(() -> get("/drip"));
            assertThat(second.expired()).isTrue();
        }

        assertThat(cutOff).isInstanceOf(IOException.class);
        // without the deadline no read would ever time out: the answer would run for as long as the server drips
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(60));
        assertThat(requests).hasValue(2);
    }

    private void get(String path) throws IOException {
        client.execute(new HttpGet("http://127.0.0.1:" + server.getAddress().getPort() + path), response -> {
            EntityUtils.consume(response.getEntity());
            return response.getCode();
        });
    }
}
