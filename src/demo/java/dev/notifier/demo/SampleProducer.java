package dev.notifier.demo;

import dev.notifier.config.KafkaClientSettings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Plays the upstream producer: creates the topics, then publishes one record per line of the
 * events file, keyed by the event's {@code transferId} as the contract asks (a line that is not a
 * JSON object with one goes without a key).
 */
final class SampleProducer {

    static final String EXAMPLES = "examples/events.jsonl";
    static final int PARTITIONS = 3;

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private SampleProducer() {
    }

    /** The lines of an events file, and where they came from. */
    record Events(String source, List<String> lines) {
    }

    /** {@code file}; without one examples/events.jsonl in the working directory, else the jar's copy. */
    static Events load(Optional<Path> file) throws IOException {
        Path path = file.orElse(Path.of(EXAMPLES));
        if (file.isPresent() || Files.isRegularFile(path)) {
            return new Events(path.toString(), nonBlank(Files.readString(path)));
        }
        try (InputStream in = SampleProducer.class.getClassLoader().getResourceAsStream(EXAMPLES)) {
            if (in == null) {
                throw new FileNotFoundException(EXAMPLES + " is neither in the working directory nor in the jar");
            }
            return new Events(EXAMPLES + " (packaged copy)", nonBlank(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        }
    }

    static void createTopics(String bootstrapServers, String topic, String dlqTopic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers,
                KafkaClientSettings.METRICS_PUSH, "false"))) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1), new NewTopic(dlqTopic, 1, (short) 1)))
                    .all().get();
        }
    }

    /** Publishes every line and waits until the broker has acknowledged each. */
    static void publish(String bootstrapServers, String topic, List<String> lines) throws InterruptedException, ExecutionException {
        Map<String, Object> config = Map.of(
                "bootstrap.servers", bootstrapServers,
                KafkaClientSettings.METRICS_PUSH, "false",
                "acks", "all",
                "key.serializer", ByteArraySerializer.class.getName(),
                "value.serializer", ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (String line : lines) {
                sent.add(producer.send(new ProducerRecord<>(topic, keyOf(line), line.getBytes(StandardCharsets.UTF_8))));
            }
            for (Future<RecordMetadata> acknowledgement : sent) {
                acknowledgement.get();
            }
        }
    }

    static byte[] keyOf(String line) {
        try {
            JsonNode transferId = MAPPER.readTree(line).path("transferId");
            return transferId.isTextual() ? transferId.asText().getBytes(StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static List<String> nonBlank(String text) {
        return text.lines().filter(line -> !line.isBlank()).toList();
    }
}
