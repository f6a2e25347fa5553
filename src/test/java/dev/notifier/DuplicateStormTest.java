package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.Events;
import dev.notifier.support.LogCapture;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * At-least-once in, exactly-once per (event, channel) out. Copies under another key land on
 * another partition and are processed concurrently by another consumer thread: the inbox's
 * primary key, not luck, decides which copy wins.
 */
class DuplicateStormTest extends PipelineTestBase {

    private static final int EVENTS = 200;

    @Test
    void shouldDeliverEachEventAndChannelExactlyOnceUnderADuplicateStorm() throws Exception {
        Random random = new Random(42);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        Set<String> expectedEmailKeys = new HashSet<>();
        Set<String> expectedPushKeys = new HashSet<>();
        for (int i = 0; i < EVENTS; i++) {
            UUID eventId = UUID.randomUUID();
            String json = Events.json(eventId, i % 2 == 0 ? "th-TH" : "en-US", null);
            int copies = 1 + random.nextInt(4);
            for (int c = 0; c < copies; c++) {
                // every other copy travels under a different key: another partition, another consumer
                String key = c % 2 == 0 ? "TRX-" + i : "other-" + i + "-" + c;
                records.add(Events.record(topic, key, json));
            }
            expectedEmailKeys.add("<" + eventId + ".email@notifier>");
            expectedPushKeys.add(eventId + ":PUSH");
        }
        Collections.shuffle(records, random);
        int logMark = LogCapture.mark();
        TestKafka.send(topic, records);

        startNotifier();

        await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(2 * EVENTS));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(TestKafka.committedOffsets(group, topic)).isEqualTo(records.size()));

        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(EVENTS);
        assertThat(db.count("SELECT count(*) FROM notifications")).isEqualTo(2 * EVENTS);
        assertThat(emailKeys()).hasSize(EVENTS).containsExactlyInAnyOrderElementsOf(expectedEmailKeys);
        assertThat(acceptedPushKeys()).hasSize(EVENTS).containsExactlyInAnyOrderElementsOf(expectedPushKeys);
        assertThat(LogCapture.since(logMark)).noneMatch(line -> line.contains("25P02")
                || line.contains("UnexpectedRollbackException")
                || line.contains("current transaction is aborted")
                || line.contains("duplicate key value"));
        assertThat(LogCapture.since(logMark)).filteredOn(line -> line.contains("dropped by the inbox"))
                .hasSize(records.size() - EVENTS);
    }
}
