package dev.notifier.support;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real Apache Kafka broker (KRaft, combined mode) in this JVM, started once and shared by all
 * test classes; tests isolate themselves by topic and group names.
 */
public final class TestKafka {

    private static KafkaClusterTestKit cluster;

    private TestKafka() {
    }

    public static synchronized String bootstrapServers() {
        if (cluster == null) {
            try {
                // a base directory of our own: the test kit's default one is deleted by a shutdown hook
                // of Kafka's that races the close below, and a broker that loses its metadata log dir
                // halts the JVM with exit code 1 (surefire: "Error occurred in starting fork" after
                // every test passed). The kit's close deletes this one after the broker has stopped.
                KafkaClusterTestKit kit = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                        .setBaseDirectory(Files.createTempDirectory("notifier-test-kafka"))
                        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                        .setConfigProp("offsets.topic.replication.factor", "1")
                        .setConfigProp("offsets.topic.num.partitions", "4")
                        .setConfigProp("transaction.state.log.replication.factor", "1")
                        .setConfigProp("transaction.state.log.min.isr", "1")
                        .setConfigProp("min.insync.replicas", "1")
                        .setConfigProp("default.replication.factor", "1")
                        .setConfigProp("group.initial.rebalance.delay.ms", "0")
                        .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
                        .setConfigProp("share.coordinator.state.topic.min.isr", "1")
                        .build();
                kit.format();
                kit.startup();
                kit.waitForReadyBrokers();
                cluster = kit;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        kit.close();
                    } catch (Exception ignored) {
                        // the JVM is going away
                    }
                }));
            } catch (Exception e) {
                throw new IllegalStateException("could not start the embedded Kafka broker", e);
            }
        }
        return cluster.bootstrapServers();
    }

    /** A fresh topic with a unique name. */
    public static String createTopic(String prefix, int partitions) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        createNamedTopic(name, partitions, Map.of());
        return name;
    }

    /** A topic of this very name, with topic configs such as {@code max.message.bytes}. */
    public static void createNamedTopic(String name, int partitions, Map<String, String> configs) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all().get();
        } catch (Exception e) {
            throw new IllegalStateException("could not create topic " + name, e);
        }
    }

    public static KafkaProducer<byte[], byte[]> producer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        // one request in flight: on a loaded machine a timed-out, retried batch can otherwise be
        // refused by the broker as out of sequence and retried forever
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "60000");
        return new KafkaProducer<>(props);
    }

    public static void send(String topic, List<ProducerRecord<byte[], byte[]>> records) {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            for (ProducerRecord<byte[], byte[]> record : records) {
                producer.send(record);
            }
            producer.flush();
        }
    }

    /** Everything currently in the topic, read by a throw-away group from the beginning. */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int expectedAtLeast, Duration timeout) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(Set.of(topic));
            while (records.size() < expectedAtLeast && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            // one more poll so that "more than expected" is seen too
            consumer.poll(Duration.ofMillis(300)).forEach(records::add);
        }
        return records;
    }

    /** The committed offset sum of a group on a topic: how far the group has confirmed. */
    public static long committedOffsets(String group, String topic) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
            return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet().stream()
                    .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                    .mapToLong(e -> e.getValue().offset()).sum();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
