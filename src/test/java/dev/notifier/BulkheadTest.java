package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A bulkhead per channel: the push gateway stops answering (it accepts connections and never
 * replies), and email keeps going, all of it delivered while not one push has been answered.
 */
class BulkheadTest extends PipelineTestBase {

    private static final int EVENTS = 300;

    private final List<Socket> held = new CopyOnWriteArrayList<>();
    private ServerSocket silentGateway;

    @AfterEach
    void closeGateway() throws IOException {
        if (silentGateway != null) {
            silentGateway.close();
        }
        for (Socket socket : held) {
            socket.close();
        }
    }

    @Test
    void shouldDeliverEveryEmailWhileThePushGatewayHangs() throws Exception {
        silentGateway = new ServerSocket();
        silentGateway.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(() -> {
            while (!silentGateway.isClosed()) {
                try {
                    held.add(silentGateway.accept());
                } catch (IOException e) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            records.add(Events.record(topic, "k" + i, Events.json(UUID.randomUUID(), "en", "[\"EMAIL\",\"PUSH\"]")));
        }
        TestKafka.send(topic, records);
        Map<String, String> settings = settings();
        settings.put("notifier.channel.push.url", "http://127.0.0.1:" + silentGateway.getLocalPort() + "/push");
        // every push waits far longer than this test: the push channel is stuck throughout
        settings.put("notifier.channel.push.read-timeout-millis", "120000");
        settings.put("notifier.delivery.senders", "4");
        settings.put("notifier.delivery.queue-size", "20");
        settings.put("notifier.delivery.hand-off-wait-millis", "500");

        startNotifier(settings);

        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(
                db.count("SELECT count(*) FROM notifications WHERE channel = 'EMAIL' AND status = 'SENT'")).isEqualTo(EVENTS));
        assertThat(peers.emails()).hasSize(EVENTS);
        assertThat(db.count("SELECT count(*) FROM notifications WHERE channel = 'PUSH' AND status IN ('SENT', 'FAILED')"))
                .as("pushes answered").isZero();
        assertThat(db.count("SELECT count(*) FROM notifications WHERE channel = 'PUSH'")).isEqualTo(EVENTS);
    }
}
