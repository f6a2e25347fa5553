package dev.notifier.ops.commands;

import dev.notifier.config.KafkaClientSettings;
import dev.notifier.inbox.DeadLetterHeaders;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Re-publishes dead-lettered records to the main topic: the original value, key and headers,
 * without the {@code notifier-*} headers the dead-letter route added (a producer's own header of
 * such a name travels escaped, and goes back under its own name: {@link DeadLetterHeaders}).
 * A record dead-lettered longer ago than the inbox retention is refused: the inbox may have
 * forgotten its event, and replaying it could deliver that event a second time. The DLQ is read by a
 * consumer group of its own, and each record's offset is committed only after the main topic
 * acknowledged it: a record is replayed once, and the next run starts after the last one replayed.
 * It stops at the end the DLQ had when it started, so records dead-lettered again meanwhile wait
 * for the next run.
 */
final class DlqReplay {

    static final String TRUNCATED = DeadLetterHeaders.TRUNCATED;
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration ASSIGNMENT_TIMEOUT = Duration.ofSeconds(60);

    private final KafkaClientSettings kafka;
    private final String dlqTopic;
    private final String mainTopic;
    private final String group;
    private final Duration inboxRetention;

    /** @param inboxRetention {@code notifier.inbox.retention}, or null: the inbox forgets nothing */
    DlqReplay(KafkaClientSettings kafka, String dlqTopic, String mainTopic, String group, Duration inboxRetention) {
        this.kafka = kafka;
        this.inboxRetention = inboxRetention;
        this.dlqTopic = dlqTopic;
        this.mainTopic = mainTopic;
        this.group = group;
    }

    /**
     * What a run did: records replayed, records skipped because the DLQ holds only part of them, and
     * records refused because they are older than the inbox retention.
     */
    record Result(int replayed, int skippedTruncated, int refusedTooOld) {
    }

    /** Replays up to {@code limit} records. */
    Result replay(int limit) throws Exception {
        try {
            return replayUpTo(limit);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka at " + kafka.brokers() + " did not answer in time: " + e.getMessage(), e);
        }
    }

    private Result replayUpTo(int limit) throws Exception {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig(limit));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig())) {
            requireTopic(consumer, dlqTopic, "DLQ");
            requireTopic(consumer, mainTopic, "main");
            consumer.subscribe(List.of(dlqTopic));
            Map<TopicPartition, Long> end = null;
            long assignmentDeadline = System.nanoTime() + ASSIGNMENT_TIMEOUT.toNanos();
            int replayed = 0;
            int skipped = 0;
            int tooOld = 0;
            long oldest = inboxRetention == null ? Long.MIN_VALUE
                    : System.currentTimeMillis() - inboxRetention.toMillis();
            while (replayed < limit) {
                var records = consumer.poll(POLL);
                if (end == null) {
                    if (consumer.assignment().isEmpty()) {
                        if (System.nanoTime() > assignmentDeadline) {
                            throw new IllegalStateException("no partition of " + dlqTopic + " was assigned to group "
                                    + group + " within " + ASSIGNMENT_TIMEOUT.toSeconds() + " s; is another replay running?");
                        }
                        continue;
                    }
                    end = consumer.endOffsets(consumer.assignment());
                }
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    if (replayed < limit && record.offset() < end.getOrDefault(partitionOf(record), 0L)) {
                        // a record cut to fit the DLQ is not the record that was sent: replaying it
                        // would only dead-letter it again, now as "not JSON"
                        if (record.headers().lastHeader(TRUNCATED) != null) {
                            skipped++;
                        } else if (record.timestamp() < oldest) {
                            tooOld++;
                        } else {
                            publish(producer, record);
                            replayed++;
                        }
                        consumer.commitSync(Map.of(partitionOf(record), new OffsetAndMetadata(record.offset() + 1)));
                    }
                }
                if (reached(consumer, end)) {
                    break;
                }
            }
            return new Result(replayed, skipped, tooOld);
        }
    }

    private void requireTopic(KafkaConsumer<byte[], byte[]> consumer, String topic, String role) {
        List<PartitionInfo> partitions = consumer.partitionsFor(topic);
        if (partitions == null || partitions.isEmpty()) {
            throw new IllegalStateException(role + " topic " + topic + " does not exist at " + kafka.brokers());
        }
    }

    private void publish(KafkaProducer<byte[], byte[]> producer, ConsumerRecord<byte[], byte[]> record) throws Exception {
        ProducerRecord<byte[], byte[]> copy = new ProducerRecord<>(mainTopic, record.key(), record.value());
        for (Header header : record.headers()) {
            String name = DeadLetterHeaders.producerName(header.key());
            if (name != null) {
                copy.headers().add(name, header.value());
            }
        }
        // acknowledged (acks=all) before the DLQ offset moves past it
        producer.send(copy).get();
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition partition : consumer.assignment()) {
            positions.put(partition, consumer.position(partition));
        }
        return end.entrySet().stream().allMatch(e -> positions.getOrDefault(e.getKey(), Long.MAX_VALUE) >= e.getValue());
    }

    private static TopicPartition partitionOf(ConsumerRecord<?, ?> record) {
        return new TopicPartition(record.topic(), record.partition());
    }

    private Properties consumerConfig(int limit) {
        Properties props = common();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // asking for a misspelt topic must not create it
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        // a dead broker is a one-line failure after 15 s, not a minute of silence
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(Math.min(limit, 100)));
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }

    private Properties producerConfig() {
        Properties props = common();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return props;
    }

    private Properties common() {
        return kafka.clientProperties();
    }
}
