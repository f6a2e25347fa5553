package dev.notifier.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.ops.commands.DlqCommand;
import dev.notifier.support.CommandRun;
import dev.notifier.support.Events;
import dev.notifier.support.Peers;
import dev.notifier.support.RunningNotifier;
import dev.notifier.support.SecureTestKafka;
import dev.notifier.support.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kafka over SASL_SSL through one set of settings: the service's consumers and DLQ producer and the
 * {@code dlq replay} command all reach a broker that speaks nothing else.
 */
class KafkaSaslSslTest {

    private static SecureTestKafka kafka;

    @BeforeAll
    static void startBroker() throws Exception {
        kafka = new SecureTestKafka();
    }

    @AfterAll
    static void stopBroker() throws Exception {
        kafka.close();
    }

    @Test
    void shouldConsumeDeadLetterAndReplayOverSaslSsl() throws Exception {
        String topic = "events-" + UUID.randomUUID().toString().substring(0, 8);
        String dlqTopic = topic + ".dlq";
        kafka.createTopics(topic, dlqTopic);
        UUID eventId = UUID.randomUUID();
        produce(topic, List.of(Events.record(topic, "k1", Events.json(eventId, "en", "[\"PUSH\"]")),
                Events.record(topic, "k2", "not an event")));
        try (TestDatabase db = new TestDatabase(); Peers peers = new Peers()) {
            Map<String, String> settings = new HashMap<>(RunningNotifier.settings(db, topic, dlqTopic, "notifier-" + topic,
                    peers.smtpPort(), peers.pushUrl()));
            settings.putAll(kafka.notifierSettings());

            try (RunningNotifier running = RunningNotifier.start(settings)) {
                await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(db.count(
                        "SELECT count(*) FROM notifications WHERE event_id = ? AND status = 'SENT'", eventId)).isEqualTo(1));
                List<ConsumerRecord<byte[], byte[]>> dead = read(dlqTopic, 1);
                assertThat(dead).hasSize(1);
                assertThat(new String(dead.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("not an event");
            }

            CommandRun replay = CommandRun.run(DlqCommand::new, settings, "replay");

            assertThat(replay.exitCode()).as(replay.err()).isZero();
            assertThat(replay.out()).startsWith("replayed 1 record(s) from " + dlqTopic + " to " + topic);
        }
        // the event, the poison record, and the poison record again: replayed from the DLQ
        assertThat(read(topic, 3)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .hasSize(3).filteredOn("not an event"::equals).hasSize(2);
    }

    private static void produce(String topic, List<ProducerRecord<byte[], byte[]>> records) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProperties(), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (ProducerRecord<byte[], byte[]> record : records) {
                producer.send(record).get();
            }
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int expected) {
        Properties p = kafka.clientProperties();
        p.put("group.id", "reader-" + UUID.randomUUID());
        p.put("auto.offset.reset", "earliest");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}
