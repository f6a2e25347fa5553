package dev.notifier.bench;

import dev.notifier.event.EventParser;
import dev.notifier.support.Events;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What the benchmark publishes: contract-shaped events that name both channels (so each is one
 * inbox key and two notification rows), seeded so every run publishes the same shape.
 */
final class BenchLoad {

    static final String BOTH_CHANNELS = "[\"EMAIL\",\"PUSH\"]";

    final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    final int events;

    private BenchLoad(int events) {
        this.events = events;
    }

    /**
     * {@code events} distinct events plus one duplicate record for every tenth of them, half of the
     * copies under another key (another partition, another consumer), shuffled.
     */
    static BenchLoad preloaded(String topic, int events, long seed) {
        BenchLoad load = new BenchLoad(events);
        Random random = new Random(seed);
        List<String> values = new ArrayList<>(events);
        for (int i = 0; i < events; i++) {
            String json = Events.json(new UUID(random.nextLong(), random.nextLong()), i % 2 == 0 ? "th-TH" : "en-GB",
                    BOTH_CHANNELS);
            values.add(json);
            load.records.add(Events.record(topic, "TRX-" + i, json));
        }
        for (int d = 0; d < events / 10; d++) {
            int i = random.nextInt(events);
            load.records.add(Events.record(topic, d % 2 == 0 ? "TRX-" + i : "copy-" + d, values.get(i)));
        }
        Collections.shuffle(load.records, random);
        return load;
    }

    /** Distinct events keyed by their eventId, so a send can be timed by its key. */
    static BenchLoad stream(String topic, int events, long seed) {
        BenchLoad load = new BenchLoad(events);
        Random random = new Random(seed);
        for (int i = 0; i < events; i++) {
            UUID eventId = new UUID(random.nextLong(), random.nextLong());
            load.records.add(Events.record(topic, eventId.toString(), Events.json(eventId, "en-GB", BOTH_CHANNELS)));
        }
        return load;
    }

    int duplicates() {
        return records.size() - events;
    }

    /** The payload Notifier stores with each row for such an event: what pgbench binds as {@code :payload}. */
    static String storedPayload() throws Exception {
        EventParser parser = new EventParser(65_536);
        String json = Events.json(UUID.randomUUID(), "th-TH", BOTH_CHANNELS);
        return parser.toJson(parser.parse(json.getBytes(StandardCharsets.UTF_8)));
    }
}
