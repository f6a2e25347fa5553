package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.notifier.support.Events;
import dev.notifier.support.ManagementPort;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The same eventId with other content is a conflict, not a duplicate: it goes to the DLQ naming the
 * fields that differ, is counted and shown, and the first record stands. The same content however
 * serialised stays a plain duplicate.
 */
class ConflictingDuplicateTest extends PipelineTestBase {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void shouldDeadLetterAConflictingDuplicateAndKeepTheFirstRecord() throws Exception {
        UUID eventId = UUID.randomUUID();
        String first = Events.json(eventId, "th-TH", "[\"EMAIL\",\"PUSH\"]");
        ObjectNode forged = (ObjectNode) JSON.readTree(first);
        forged.put("amount", "99999.00");
        ((ObjectNode) forged.get("recipient")).put("email", "attacker@evil.example");
        UUID after = UUID.randomUUID();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        records.add(Events.record(topic, "k", first));
        // the same event re-serialised: other field order and spacing, 1500.0 for 1500.00, channels reordered
        records.add(Events.record(topic, "k", reserialised(first)));
        ProducerRecord<byte[], byte[]> conflicting = Events.record(topic, "k", JSON.writeValueAsString(forged));
        conflicting.headers().add("trace-id", "t-1".getBytes(StandardCharsets.UTF_8));
        records.add(conflicting);
        records.add(Events.record(topic, "k", Events.json(after, "en", "[\"PUSH\"]")));
        TestKafka.send(topic, records);

        ManagementPort port = new ManagementPort(startNotifier());

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(3));
        List<ConsumerRecord<byte[], byte[]>> dead = TestKafka.readAll(dlqTopic, 1, Duration.ofSeconds(30));
        assertThat(dead).hasSize(1);
        ConsumerRecord<byte[], byte[]> letter = dead.get(0);
        assertThat(header(letter, "notifier-error")).isEqualTo("conflict: amount, recipient.email");
        assertThat(letter.value()).isEqualTo(conflicting.value());
        assertThat(header(letter, "trace-id")).isEqualTo("t-1");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(TestKafka.committedOffsets(group, topic)).isEqualTo(records.size()));
        // the first record stands: one email, to its own address, for its own amount
        assertThat(peers.smtp.getReceivedMessagesForDomain("evil.example")).isEmpty();
        assertThat(emailKeys()).hasSize(1);
        assertThat(db.count("SELECT count(*) FROM notifications WHERE event_id = ?", eventId)).isEqualTo(2);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(metrics(port)).containsEntry("notifier_events_conflicts_total", 1.0)
                    .containsEntry("notifier_events_duplicates_total", 1.0)
                    .containsEntry("notifier_dead_letters_total", 1.0);
            JsonNode summary = JSON.readTree(port.get("/api/summary").body());
            assertThat(summary.get("conflicts").asLong()).isEqualTo(1);
        });
    }

    private static String reserialised(String json) throws Exception {
        ObjectNode original = (ObjectNode) JSON.readTree(json);
        original.put("amount", "1500.0");
        ArrayNode channels = JSON.createArrayNode();
        for (int i = original.get("channels").size() - 1; i >= 0; i--) {
            channels.add(original.get("channels").get(i));
        }
        original.set("channels", channels);
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(reversed(original));
    }

    private static ObjectNode reversed(ObjectNode node) {
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            fields.add(0, it.next());
        }
        ObjectNode copy = JSON.createObjectNode();
        fields.forEach(field -> copy.set(field.getKey(),
                field.getValue() instanceof ObjectNode inner ? reversed(inner) : field.getValue()));
        return copy;
    }

    private static Map<String, Double> metrics(ManagementPort port) throws Exception {
        Map<String, Double> samples = new java.util.HashMap<>();
        port.get("/metrics").body().lines().filter(line -> !line.startsWith("#") && !line.isBlank()).forEach(line -> {
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        });
        return samples;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
