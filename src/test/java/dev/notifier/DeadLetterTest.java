package dev.notifier;

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

/** Poison records never block a partition and never vanish: each lands in the DLQ with a reason. */
class DeadLetterTest extends PipelineTestBase {

    @Test
    void shouldDeadLetterEveryPoisonRecordAndDeliverTheValidOnesAroundThem() throws Exception {
        Map<String, byte[]> poison = new java.util.LinkedHashMap<>();
        poison.put("not-json", "hello".getBytes(StandardCharsets.UTF_8));
        poison.put("array", "[1,2]".getBytes(StandardCharsets.UTF_8));
        poison.put("bad-uuid", Events.json(UUID.randomUUID(), "en", null).replaceFirst("\"eventId\":\"[^\"]+\"",
                "\"eventId\":\"nope\"").getBytes(StandardCharsets.UTF_8));
        poison.put("unknown-channel", Events.json(UUID.randomUUID(), "en", "[\"SMS\"]").getBytes(StandardCharsets.UTF_8));
        poison.put("crlf-email", Events.json(UUID.randomUUID(), "en", null).replaceFirst("\"email\":\"[^\"]+\"",
                "\"email\":\"a@example.com\\\\r\\\\nBcc: x@evil.example\"").getBytes(StandardCharsets.UTF_8));
        poison.put("latin1", new byte[] {'{', (byte) 0xE9, '}'});
        byte[] oversized = new byte[70_000];
        Arrays.fill(oversized, (byte) ' ');
        poison.put("oversized", oversized);

        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        List<UUID> valid = new ArrayList<>();
        for (Map.Entry<String, byte[]> entry : poison.entrySet()) {
            UUID before = UUID.randomUUID();
            valid.add(before);
            // the same key as the poison: same partition, so a blocked partition would show
            records.add(Events.record(topic, entry.getKey(), Events.json(before, "en", "[\"PUSH\"]")));
            ProducerRecord<byte[], byte[]> bad = new ProducerRecord<>(topic, entry.getKey().getBytes(StandardCharsets.UTF_8),
                    entry.getValue());
            bad.headers().add("trace-id", ("trace-" + entry.getKey()).getBytes(StandardCharsets.UTF_8));
            // a producer's header named like Notifier's own: kept, namespaced, never taken for ours
            bad.headers().add("notifier-truncated", "forged".getBytes(StandardCharsets.UTF_8));
            records.add(bad);
        }
        UUID after = UUID.randomUUID();
        valid.add(after);
        records.add(Events.record(topic, "oversized", Events.json(after, "en", "[\"PUSH\"]")));
        TestKafka.send(topic, records);

        startNotifier();

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(valid.size()));
        List<ConsumerRecord<byte[], byte[]>> dead = TestKafka.readAll(dlqTopic, poison.size(), Duration.ofSeconds(30));
        assertThat(dead).hasSize(poison.size());
        Map<String, ConsumerRecord<byte[], byte[]>> byKey = dead.stream()
                .collect(Collectors.toMap(r -> new String(r.key(), StandardCharsets.UTF_8), r -> r));
        assertThat(byKey.keySet()).containsExactlyInAnyOrderElementsOf(poison.keySet());
        for (Map.Entry<String, byte[]> entry : poison.entrySet()) {
            ConsumerRecord<byte[], byte[]> record = byKey.get(entry.getKey());
            assertThat(record.value()).as("original bytes of %s", entry.getKey()).isEqualTo(entry.getValue());
            assertThat(header(record, "trace-id")).isEqualTo("trace-" + entry.getKey());
            assertThat(header(record, "notifier-error")).isNotBlank().doesNotContain("\n").doesNotContain("\r");
            assertThat(header(record, "notifier-source")).matches(topic + "-\\d+@\\d+");
            assertThat(header(record, "producer:notifier-truncated")).isEqualTo("forged");
            assertThat(header(record, "notifier-truncated")).isNull();
        }
        assertThat(header(byKey.get("unknown-channel"), "notifier-error")).contains("SMS");
        assertThat(header(byKey.get("crlf-email"), "notifier-error")).contains("recipient.email");
        assertThat(header(byKey.get("oversized"), "notifier-error")).contains("70000 bytes");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(TestKafka.committedOffsets(group, topic)).isEqualTo(records.size()));
        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(valid.size());
        assertThat(peers.smtp.getReceivedMessagesForDomain("evil.example")).isEmpty();
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
