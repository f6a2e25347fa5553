package dev.notifier.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.apache.camel.component.kafka.consumer.KafkaManualCommit;

/**
 * Stands in for the Kafka consumer's offset commit: counts the calls and, at each one, records
 * what {@code atCommit} observes then (typically the database, read through a connection of its
 * own, so only committed rows are seen).
 */
public final class RecordingCommit implements KafkaManualCommit {

    private final Supplier<?> atCommit;
    private final List<Object> observed = new CopyOnWriteArrayList<>();

    private RecordingCommit(Supplier<?> atCommit) {
        this.atCommit = atCommit;
    }

    public static RecordingCommit counting() {
        return new RecordingCommit(() -> "committed");
    }

    public static RecordingCommit observing(Supplier<?> atCommit) {
        return new RecordingCommit(atCommit);
    }

    @Override
    public void commit() {
        observed.add(atCommit.get());
    }

    public int calls() {
        return observed.size();
    }

    /** One entry per call, in order. */
    public List<Object> observed() {
        return List.copyOf(observed);
    }
}
