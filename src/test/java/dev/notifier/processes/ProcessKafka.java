package dev.notifier.processes;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Client-side helpers against the suite's broker process. */
public final class ProcessKafka {

    private ProcessKafka() {
    }

    /** Publishes the records at about {@code perSecond}, in the background, so faults land mid-stream. */
    public static CompletableFuture<Void> publishPaced(String bootstrap, List<ProducerRecord<byte[], byte[]>> records,
                                                      int perSecond) {
        return publishPaced(bootstrap, records, perSecond, record -> { });
    }

    /** As above; {@code beforeSend} sees each record right before it is handed to the producer. */
    public static CompletableFuture<Void> publishPaced(String bootstrap, List<ProducerRecord<byte[], byte[]>> records,
                                                      int perSecond, Consumer<ProducerRecord<byte[], byte[]>> beforeSend) {
        return CompletableFuture.runAsync(() -> {
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
            props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(2 * 1024 * 1024));
            props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "300000");
            long start = System.nanoTime();
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
                for (int i = 0; i < records.size(); i++) {
                    beforeSend.accept(records.get(i));
                    producer.send(records.get(i));
                    long due = start + (long) (i * 1e9 / perSecond);
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // pacing the load, not synchronising
                    }
                }
                producer.flush();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    public static long endOffsets(Admin admin, String topic) throws Exception {
        Set<TopicPartition> partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic)
                .partitions().stream().map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toSet());
        return admin.listOffsets(partitions.stream().collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest())))
                .all().get().values().stream().mapToLong(i -> i.offset()).sum();
    }

    public static long committedOffsets(Admin admin, String group, String topic) throws Exception {
        return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet().stream()
                .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                .mapToLong(e -> e.getValue().offset()).sum();
    }

    /** Every record of a topic, values only, read from the beginning by a throw-away group. */
    public static List<byte[]> readValues(String bootstrap, String topic, Duration quiet) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "audit-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(2 * 1024 * 1024));
        List<byte[]> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(Set.of(topic));
            long quietUntil = System.nanoTime() + quiet.toNanos();
            while (System.nanoTime() < quietUntil) {
                var batch = consumer.poll(Duration.ofMillis(250));
                if (!batch.isEmpty()) {
                    batch.forEach(r -> values.add(r.value()));
                    quietUntil = System.nanoTime() + quiet.toNanos();
                }
            }
        }
        return values;
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public static Map<String, Object> adminConfig(String bootstrap) {
        return Map.of("bootstrap.servers", bootstrap);
    }
}
