package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A push gateway that answers the first request for each key a byte at a time, each byte well within
 * the read timeout, for ever: no per-read timeout ever fires. The send is cut off at its claim's
 * deadline, and the next attempt (the same Idempotency-Key) comes only after the first connection was
 * closed: never two requests for one key open at once, and one answer in full per key.
 */
class DrippingProviderTest extends PipelineTestBase {

    private static final int EVENTS = 3;
    private static final Duration LEASE = Duration.ofSeconds(8);

    private DrippingGateway gateway;

    @AfterEach
    void closeGateway() throws IOException {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void shouldCutOffADrippedAnswerBeforeItsClaimEndsAndSendTheKeyAgainOnlyAfterIt() throws Exception {
        gateway = new DrippingGateway();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            records.add(Events.record(topic, "k" + i, Events.json(UUID.randomUUID(), "en", "[\"PUSH\"]")));
        }
        Map<String, String> settings = settings();
        settings.put("notifier.channel.push.url", "http://127.0.0.1:" + gateway.port() + "/push");
        settings.put("notifier.delivery.lease-seconds", String.valueOf(LEASE.toSeconds()));
        // every send's timeouts fit the claim (the start checks it), each read's 1 s included
        settings.put("camel.component.http.connection-request-timeout", "1000");
        for (String channel : List.of("push", "line")) {
            settings.put("notifier.channel." + channel + ".connect-timeout-millis", "1000");
            settings.put("notifier.channel." + channel + ".read-timeout-millis", "1000");
        }
        settings.put("notifier.smtp.timeout-millis", "500");
        settings.put("notifier.smtp.connection-wait-millis", "500");
        // a retry well after the gateway has seen the first connection go
        settings.put("notifier.delivery.retry-base-millis", "3000");

        startNotifier(settings);
        TestKafka.send(topic, records);

        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'SENT'")).isEqualTo(EVENTS));
        // every connection the gateway saw has ended (a dripped one only when the client closed it)
        await().atMost(Duration.ofSeconds(60)).until(() -> gateway.requests.stream().allMatch(r -> r.closedAt != 0));
        assertThat(gateway.requests).hasSize(2 * EVENTS);
        assertThat(gateway.requests.stream().filter(r -> r.answeredInFull).map(r -> r.key).toList())
                .as("keys answered in full, once each").doesNotHaveDuplicates().hasSize(EVENTS);
        for (Request dripped : gateway.requests.stream().filter(r -> !r.answeredInFull).toList()) {
            assertThat(Duration.ofNanos(dripped.closedAt - dripped.startedAt)).as("a dripped answer's connection, open")
                    .isLessThan(LEASE);
            assertThat(gateway.requests).filteredOn(r -> r.key.equals(dripped.key) && r != dripped)
                    .singleElement().satisfies(next -> assertThat(next.startedAt)
                            .as("the next request for the key begins after the dripped one's connection closed")
                            .isGreaterThan(dripped.closedAt));
        }
        assertThat(db.jdbc().queryForList("SELECT error FROM notification_attempts WHERE outcome = 'RETRY'", String.class))
                .hasSize(EVENTS).allSatisfy(e -> assertThat(e).contains("cut off at its claim's deadline"));
        assertThat(db.count("SELECT count(*) FROM notification_attempts WHERE claim_lost")).isZero();
    }

    /** One request as the gateway saw it: its key, when it began and when its connection ended. */
    static final class Request {
        final String key;
        final long startedAt = System.nanoTime();
        volatile long closedAt;
        volatile boolean answeredInFull;

        Request(String key) {
            this.key = key;
        }
    }

    /** The first request of each key dripped for ever, every later one answered at once. */
    static final class DrippingGateway implements AutoCloseable {
        final List<Request> requests = new CopyOnWriteArrayList<>();
        private final Map<String, Boolean> seen = new ConcurrentHashMap<>();
        private final List<Socket> open = new CopyOnWriteArrayList<>();
        private final ServerSocket server = new ServerSocket();

        DrippingGateway() throws IOException {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread acceptor = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket socket = server.accept();
                        socket.setTcpNoDelay(true);
                        open.add(socket);
                        Thread connection = new Thread(() -> converse(socket));
                        connection.setDaemon(true);
                        connection.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void converse(Socket socket) {
            Request request = null;
            try {
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
                OutputStream out = socket.getOutputStream();
                while (true) {
                    String key = readRequest(in);
                    if (key == null) {
                        return;
                    }
                    request = new Request(key);
                    requests.add(request);
                    if (seen.putIfAbsent(key, true) == null) {
                        out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        while (true) {
                            // one byte every 200 ms, each far within the 1 s read timeout: the slowness under test
                            Thread.sleep(200);
                            out.write(' ');
                            out.flush();
                        }
                    }
                    out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    request.answeredInFull = true;
                    request.closedAt = System.nanoTime();
                    request = null;
                }
            } catch (IOException | InterruptedException e) {
                // the client closed the connection (or the gateway stopped)
            } finally {
                if (request != null) {
                    request.closedAt = System.nanoTime();
                }
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // going away anyway
                }
            }
        }

        /** The request's Idempotency-Key, its body read and dropped; null at the end of the connection. */
        private static String readRequest(BufferedReader in) throws IOException {
            String line = in.readLine();
            if (line == null) {
                return null;
            }
            String key = null;
            int length = 0;
            for (line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                String lower = line.toLowerCase(Locale.ROOT);
                if (lower.startsWith("idempotency-key:")) {
                    key = line.substring(16).trim();
                } else if (lower.startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
            }
            for (int i = 0; i < length; i++) {
                in.read();
            }
            return key;
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket socket : open) {
                socket.close();
            }
        }
    }
}
