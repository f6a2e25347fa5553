package dev.notifier.inbox;

import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.event.TransferEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.camel.component.kafka.consumer.KafkaManualCommit;

/**
 * One Kafka poll on its way into the inbox (the batch intake): its valid events, its poison
 * records set aside for the DLQ, and the commit of each partition's last record. Once the inbox
 * insert has said which events are new, it also carries their claimed notifications to deliver.
 *
 * <p>{@link #getEventIds()} and {@link #getFingerprints()} are what {@link InboxRepository#addAll} binds: one
 * array per column, so a whole batch is one statement ({@code unnest}).
 */
public final class RecordBatch {

    private final List<TransferEvent> events = new ArrayList<>();
    private final List<String> sources = new ArrayList<>();
    /** Each event's record as it came: a conflicting one is dead-lettered with its own bytes, key and headers. */
    private final List<org.apache.camel.Message> records = new ArrayList<>();
    /** Each event's record's intake span, as a traceparent (null while tracing is off). */
    private final List<String> traceparents = new ArrayList<>();
    private final List<DeadLetter> deadLetters = new ArrayList<>();
    private final Map<String, KafkaManualCommit> lastCommitByPartition = new LinkedHashMap<>();
    private final Date recordedAt = new Date();
    private List<TransferEvent> newEvents = List.of();
    private List<String> duplicates = List.of();
    private final List<Integer> duplicateIndexes = new ArrayList<>();
    private final List<String> conflicts = new ArrayList<>();
    private final List<DeadLetter> conflictLetters = new ArrayList<>();
    private List<ClaimedNotification> claimed = List.of();
    private final dev.notifier.trace.RecordSpans spans = new dev.notifier.trace.RecordSpans();

    void addEvent(TransferEvent event, String source, org.apache.camel.Message record, String traceparent) {
        events.add(event);
        sources.add(source);
        records.add(record);
        traceparents.add(traceparent);
    }

    /** The records' intake spans (no-ops while tracing is off). */
    dev.notifier.trace.RecordSpans spans() {
        return spans;
    }

    void addDeadLetter(DeadLetter record) {
        deadLetters.add(record);
    }

    /** Records arrive in offset order per partition, so the last one seen is the one to commit. */
    void commitAfter(String partition, KafkaManualCommit commit) {
        if (commit != null) {
            lastCommitByPartition.put(partition, commit);
        }
    }

    /** Every valid event's inbox key, duplicates included: the inbox insert sorts them out. */
    String[] getEventIds() {
        return events.stream().map(TransferEvent::getEventIdText).toArray(String[]::new);
    }

    /** Every valid event's {@link Fingerprint}, index for index with {@link #getEventIds()}. */
    byte[][] getFingerprints() {
        return events.stream().map(Fingerprint::of).toArray(byte[][]::new);
    }

    /**
     * Keeps the events whose keys the inbox insert returned: new to the inbox, each once. Every
     * other valid record is a duplicate, from an earlier batch or from this one.
     */
    void keepNew(Collection<String> insertedKeys) {
        Set<String> inserted = new LinkedHashSet<>(insertedKeys);
        List<TransferEvent> kept = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        // a transaction that is tried again starts over: nothing of the rolled back one counts
        duplicateIndexes.clear();
        conflicts.clear();
        conflictLetters.clear();
        for (int i = 0; i < events.size(); i++) {
            if (inserted.remove(events.get(i).getEventIdText())) {
                kept.add(events.get(i));
            } else {
                dropped.add(events.get(i).eventId() + " from " + sources.get(i));
                duplicateIndexes.add(i);
            }
        }
        newEvents = kept;
        duplicates = dropped;
    }

    /** The keys of the records the inbox did not take: each to be compared with what the inbox holds. */
    String[] getDuplicateIds() {
        return duplicateIndexes.stream().map(i -> events.get(i).getEventIdText()).distinct().toArray(String[]::new);
    }

    /** Each duplicate with the reason it conflicts with its event's first record, or none when it does not. */
    void setAsideConflicts(java.util.function.Function<TransferEvent, java.util.Optional<String>> conflictOf) {
        List<String> plain = new ArrayList<>();
        for (int d = 0; d < duplicateIndexes.size(); d++) {
            int i = duplicateIndexes.get(d);
            java.util.Optional<String> conflict = conflictOf.apply(events.get(i));
            if (conflict.isPresent()) {
                conflicts.add(events.get(i).eventId() + " from " + sources.get(i) + " (" + conflict.get() + ")");
                conflictLetters.add(DeadLetter.of(records.get(i), conflict.get()).tracedBy(traceparents.get(i)));
            } else {
                plain.add(duplicates.get(d));
            }
        }
        duplicates = plain;
    }

    /** "eventId from topic-partition@offset (conflict: fields)" of every conflicting duplicate, dead-lettered. */
    public List<String> getConflicts() {
        return conflicts;
    }

    /** New events that leave the channels to us: only their recipients' preferences matter. */
    public String[] getUsersWithoutChannels() {
        return newEvents.stream().filter(e -> e.channels() == null).map(e -> e.recipient().userId()).distinct()
                .toArray(String[]::new);
    }

    public List<TransferEvent> getNewEvents() {
        return newEvents;
    }

    /** "eventId from topic-partition@offset" of every record the inbox dropped as a duplicate. */
    public List<String> getDuplicates() {
        return duplicates;
    }

    void setClaimed(List<ClaimedNotification> claimed) {
        this.claimed = List.copyOf(claimed);
    }

    /** One claimed row per (new event, channel): handed to the senders after the commit. */
    public List<ClaimedNotification> getClaimed() {
        return claimed;
    }

    /** When the batch was read: the inbox and row timestamps of everything it records. */
    public Date getRecordedAt() {
        return recordedAt;
    }

    /** The poison records and conflicting duplicates, each with its original bytes, key and headers and its reason. */
    public List<DeadLetter> getDeadLetters() {
        if (conflictLetters.isEmpty()) {
            return deadLetters;
        }
        List<DeadLetter> all = new ArrayList<>(deadLetters);
        all.addAll(conflictLetters);
        return all;
    }

    /** One per partition in the poll: committing it commits everything up to the poll's last record there. */
    public Collection<KafkaManualCommit> getOffsetCommits() {
        return lastCommitByPartition.values();
    }

    public int getRecords() {
        return events.size() + deadLetters.size();
    }
}
