package dev.notifier.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/**
 * Every record can leave its partition, whatever its size or headers: a dead letter that would be
 * larger than the DLQ allows goes out cut, saying so; one the DLQ topic refuses even so goes out as
 * its reason alone; and the valid event behind it on the same partition is delivered.
 */
class OversizeRecordTest extends PipelineTestBase {

    private static final int DLQ_LIMIT = 100_000;

    @Test
    void shouldCutADeadLetterToTheDlqLimitAndSaySo() throws Exception {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        records.add(new ProducerRecord<>(topic, 0, bytes("big-value"), filled(300_000)));
        ProducerRecord<byte[], byte[]> manyHeaders = new ProducerRecord<>(topic, 0, bytes("big-headers"), bytes("nope"));
        for (int i = 0; i < 300; i++) {
            manyHeaders.headers().add("h" + i, filled(1_000));
        }
        records.add(manyHeaders);
        UUID behind = UUID.randomUUID();
        records.add(new ProducerRecord<>(topic, 0, bytes("after"), bytes(Events.json(behind, "en", "[\"PUSH\"]"))));
        TestKafka.send(topic, records);
        Map<String, String> settings = settings();
        settings.put("notifier.dlq.max-record-bytes", String.valueOf(DLQ_LIMIT));

        startNotifier(settings);

        awaitPartitionPassed(records.size());
        Map<String, ConsumerRecord<byte[], byte[]>> dead = deadLetters(2);
        ConsumerRecord<byte[], byte[]> bigValue = dead.get("big-value");
        assertThat(bigValue.serializedValueSize()).isPositive().isLessThan(DLQ_LIMIT);
        assertThat(bigValue.value()).containsOnly((byte) 'x');
        assertThat(header(bigValue, "notifier-truncated")).startsWith("value cut from 300000 to ")
                .endsWith("to fit notifier.dlq.max-record-bytes (100000)");
        assertThat(header(bigValue, "notifier-error")).isEqualTo("value is 300000 bytes, more than the 65536 allowed");
        ConsumerRecord<byte[], byte[]> bigHeaders = dead.get("big-headers");
        assertThat(bigHeaders.value()).isEqualTo(bytes("nope"));
        assertThat(header(bigHeaders, "notifier-truncated")).contains("of 300 original headers dropped");
        List<String> kept = new ArrayList<>();
        bigHeaders.headers().forEach(h -> kept.add(h.key()));
        // the first headers are kept as they were, in order, then Notifier's
        assertThat(kept.get(0)).isEqualTo("h0");
        assertThat(kept).contains("notifier-error", "notifier-source", "notifier-truncated");
        assertThat(db.count("SELECT count(*) FROM notifications WHERE event_id = ? AND status = 'SENT'", behind))
                .isEqualTo(1);
    }

    @Test
    void shouldPublishTheReasonAloneWhenTheDlqTopicRefusesEvenTheCutRecord() throws Exception {
        // a DLQ topic that takes less than notifier.dlq.max-record-bytes (left at its default)
        TestKafka.createNamedTopic(dlqTopic, 1, Map.of("max.message.bytes", "20000"));
        UUID behind = UUID.randomUUID();
        TestKafka.send(topic, List.of(new ProducerRecord<>(topic, 0, bytes("big-value"), filled(300_000)),
                new ProducerRecord<>(topic, 0, bytes("after"), bytes(Events.json(behind, "en", "[\"PUSH\"]")))));

        startNotifier();

        awaitPartitionPassed(2);
        ConsumerRecord<byte[], byte[]> letter = deadLetters(1).get("big-value-reason-only");
        assertThat(letter.value()).isNull();
        assertThat(header(letter, "notifier-error")).isEqualTo("value is 300000 bytes, more than the 65536 allowed");
        assertThat(header(letter, "notifier-source")).isEqualTo(topic + "-0@0");
        assertThat(header(letter, "notifier-truncated")).startsWith("key, value and headers dropped: the DLQ topic refused");
        assertThat(db.count("SELECT count(*) FROM notifications WHERE event_id = ? AND status = 'SENT'", behind))
                .isEqualTo(1);
    }

    private void awaitPartitionPassed(int records) {
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            assertThat(TestKafka.committedOffsets(group, topic)).isEqualTo(records);
            assertThat(sentCount()).isEqualTo(1);
        });
    }

    /** By key; a record that lost its key is filed under its source's record key plus "-reason-only". */
    private Map<String, ConsumerRecord<byte[], byte[]>> deadLetters(int expected) {
        return TestKafka.readAll(dlqTopic, expected, Duration.ofSeconds(30)).stream().collect(Collectors.toMap(
                r -> r.key() == null ? "big-value-reason-only" : new String(r.key(), StandardCharsets.UTF_8), r -> r));
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static byte[] filled(int size) {
        byte[] value = new byte[size];
        Arrays.fill(value, (byte) 'x');
        return value;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
