package dev.notifier.ops.commands;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.CommandRun;
import dev.notifier.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** dlq replay on a real broker: DLQ records back on the main topic as the producer first sent them. */
class DlqCommandTest {

    private String topic;
    private String dlqTopic;
    private Map<String, String> settings;

    @BeforeEach
    void createTopics() {
        topic = TestKafka.createTopic("events", 3);
        dlqTopic = TestKafka.createTopic("events-dlq", 2);
        settings = Map.of("notifier.kafka.brokers", TestKafka.bootstrapServers(), "notifier.kafka.topic", topic,
                "notifier.kafka.dlq-topic", dlqTopic, "notifier.kafka.group", "notifier-" + topic);
    }

    @Test
    void shouldReplayValueKeyAndHeadersWithoutTheNotifierHeadersOnce() {
        TestKafka.send(dlqTopic, List.of(deadLetter("TRX-1", "{\"fixed\":1}"), deadLetter("TRX-2", "{\"fixed\":2}"),
                deadLetter(null, "{\"fixed\":3}")));

        CommandRun first = replay("replay");

        assertThat(first.exitCode()).isZero();
        assertThat(first.out()).isEqualTo("replayed 3 record(s) from " + dlqTopic + " to " + topic
                + " (group notifier-" + topic + "-dlq-replay)\n");
        List<ConsumerRecord<byte[], byte[]>> replayed = TestKafka.readAll(topic, 3, Duration.ofSeconds(30));
        assertThat(replayed).extracting(r -> text(r.value()))
                .containsExactlyInAnyOrder("{\"fixed\":1}", "{\"fixed\":2}", "{\"fixed\":3}");
        ConsumerRecord<byte[], byte[]> one = replayed.stream().filter(r -> text(r.value()).contains("1")).findFirst().orElseThrow();
        assertThat(text(one.key())).isEqualTo("TRX-1");
        assertThat(headers(one)).containsExactly("trace-id=trace-TRX-1", "tenant=th");
        assertThat(replayed.stream().filter(r -> r.key() == null)).hasSize(1);

        CommandRun second = replay("replay");

        assertThat(second.out()).startsWith("replayed 0 record(s)");
        assertThat(TestKafka.readAll(topic, 3, Duration.ofSeconds(5))).hasSize(3);
    }

    @Test
    void shouldReplayOnlyNewRecordsOnTheNextRunAndHonourTheLimit() {
        TestKafka.send(dlqTopic, List.of(deadLetter("TRX-1", "a"), deadLetter("TRX-1", "b"), deadLetter("TRX-1", "c")));

        assertThat(replay("replay", "--limit", "2").out()).startsWith("replayed 2 record(s)").endsWith("limit reached, run again for more\n");
        TestKafka.send(dlqTopic, List.of(deadLetter("TRX-1", "d")));
        assertThat(replay("replay").out()).startsWith("replayed 2 record(s)");

        // one key, one partition: the order is the DLQ's, and nothing came twice
        assertThat(TestKafka.readAll(topic, 4, Duration.ofSeconds(30))).extracting(r -> text(r.value()))
                .containsExactly("a", "b", "c", "d");
    }

    @Test
    void shouldRefuseRecordsDeadLetteredLongerAgoThanTheInboxRetention() {
        ProducerRecord<byte[], byte[]> young = deadLetter("TRX-1", "young");
        ProducerRecord<byte[], byte[]> old = deadLetter("TRX-1", "old");
        old = new ProducerRecord<>(dlqTopic, null, System.currentTimeMillis() - Duration.ofDays(401).toMillis(), old.key(),
                old.value(), old.headers());
        TestKafka.send(dlqTopic, List.of(old, young));
        Map<String, String> keptForAYear = new HashMap<>(settings);
        keptForAYear.put("notifier.inbox.retention", "400d");

        CommandRun run = CommandRun.run(DlqCommand::new, keptForAYear, "replay");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("replayed 1 record(s)").contains("\nrefused 1 record(s) dead-lettered longer ago"
                + " than notifier.inbox.retention (400d)");
        assertThat(TestKafka.readAll(topic, 1, Duration.ofSeconds(30))).extracting(r -> text(r.value())).containsExactly("young");
    }

    @Test
    void shouldReplayAProducersOwnNotifierHeaderUnderItsNameAndNeverReadIt() {
        ProducerRecord<byte[], byte[]> record = deadLetter("TRX-1", "{\"fixed\":1}");
        // what the DLQ holds for a record whose producer sent its own notifier-truncated header
        record.headers().add("producer:notifier-truncated", "forged".getBytes(StandardCharsets.UTF_8));
        TestKafka.send(dlqTopic, List.of(record));

        CommandRun run = replay("replay");

        assertThat(run.out()).startsWith("replayed 1 record(s)").doesNotContain("skipped");
        assertThat(headers(TestKafka.readAll(topic, 1, Duration.ofSeconds(30)).get(0)))
                .containsExactly("trace-id=trace-TRX-1", "tenant=th", "notifier-truncated=forged");
    }

    @Test
    void shouldFailInOneLineOnAMissingDlqTopic() {
        Map<String, String> missing = new HashMap<>(settings);
        missing.put("notifier.kafka.dlq-topic", "no-such-topic-" + topic);

        CommandRun run = CommandRun.run(DlqCommand::new, missing, "replay");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("dlq: DLQ topic no-such-topic-" + topic + " does not exist at "
                + TestKafka.bootstrapServers() + "\n");
    }

    @Test
    void shouldFailInOneLineWhenKafkaDoesNotAnswer() {
        Map<String, String> unreachable = new HashMap<>(settings);
        unreachable.put("notifier.kafka.brokers", "127.0.0.1:1");

        CommandRun run = CommandRun.run(DlqCommand::new, unreachable, "replay");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("dlq: Kafka at 127.0.0.1:1 did not answer in time: ").hasLineCount(1);
    }

    @Test
    void shouldRejectBadArgumentsWithUsage() {
        assertThat(replay().err()).startsWith("dlq: missing subcommand (replay)\nusage: java -jar notifier.jar dlq replay");
        assertThat(replay("replay", "--limit", "0").err()).startsWith("dlq: --limit: '0' is not a positive whole number\n");
        assertThat(replay("replay", "--limit", "ten").exitCode()).isEqualTo(2);
        assertThat(replay("replay", "--from-beginning").err()).startsWith("dlq: unknown option --from-beginning\n");
    }

    @Test
    void shouldPrintUsageOnHelp() {
        CommandRun run = replay("replay", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("usage: java -jar notifier.jar dlq replay [--limit N]");
    }

    private ProducerRecord<byte[], byte[]> deadLetter(String key, String value) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(dlqTopic,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
        record.headers().add("trace-id", ("trace-" + key).getBytes(StandardCharsets.UTF_8));
        record.headers().add("notifier-error", "recipient.email: missing".getBytes(StandardCharsets.UTF_8));
        record.headers().add("tenant", "th".getBytes(StandardCharsets.UTF_8));
        record.headers().add("notifier-source", "events-0@12".getBytes(StandardCharsets.UTF_8));
        return record;
    }

    private CommandRun replay(String... args) {
        return CommandRun.run(DlqCommand::new, settings, args);
    }

    private static List<String> headers(ConsumerRecord<byte[], byte[]> record) {
        List<String> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(header.key() + "=" + text(header.value()));
        }
        return headers;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
