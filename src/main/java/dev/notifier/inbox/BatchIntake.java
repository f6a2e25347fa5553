package dev.notifier.inbox;

import dev.notifier.event.Channel;
import dev.notifier.event.EventParser;
import dev.notifier.event.InvalidEventException;
import dev.notifier.event.TransferEvent;
import dev.notifier.trace.RecordSpans;
import dev.notifier.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.kafka.KafkaConstants;
import org.apache.camel.component.kafka.consumer.KafkaManualCommit;

/**
 * The batch intake's two steps that need Java: reading a poll (camel-kafka's batching consumer hands
 * over one exchange per record) into a {@link RecordBatch}, and writing the rows of its new events
 * with the same {@link ChannelPlanner} and {@link NotificationRows} the per-event intake uses.
 */
public class BatchIntake {

    private final EventParser parser;
    private final ChannelPlanner planner;
    private final NotificationRows rows;
    private final LongAdder recordsDone = new LongAdder();

    private final Tracing tracing;

    public BatchIntake(EventParser parser, ChannelPlanner planner, NotificationRows rows) {
        this(parser, planner, rows, Tracing.off());
    }

    public BatchIntake(EventParser parser, ChannelPlanner planner, NotificationRows rows, Tracing tracing) {
        this.tracing = tracing;
        this.parser = parser;
        this.planner = planner;
        this.rows = rows;
    }

    /** Parses every record on its own: one that can never be processed is set aside, never the batch. */
    public RecordBatch parse(List<Exchange> records) {
        RecordBatch batch = new RecordBatch();
        for (Exchange record : records) {
            Message message = record.getMessage();
            String partition = message.getHeader(KafkaConstants.TOPIC) + "-" + message.getHeader(KafkaConstants.PARTITION);
            Span span = tracing.intake(message);
            try {
                TransferEvent event = parser.parse(message.getBody(byte[].class));
                batch.addEvent(event, partition + "@" + message.getHeader(KafkaConstants.OFFSET), message,
                        RecordSpans.traceparent(span));
                batch.spans().add(event.getEventIdText(), span);
            } catch (InvalidEventException e) {
                batch.addDeadLetter(DeadLetter.of(message, e.getMessage()).tracedBy(RecordSpans.traceparent(span)));
                batch.spans().add(null, span);
            }
            batch.commitAfter(partition, message.getHeader(KafkaConstants.MANUAL_COMMIT, KafkaManualCommit.class));
        }
        return batch;
    }

    /** Counts a batch whose records are all through intake (the metrics' consumed records). */
    public void done(RecordBatch batch) {
        recordsDone.add(batch.getRecords());
        if (!tracing.enabled()) {
            return;
        }
        Map<String, List<String>> channels = new HashMap<>();
        batch.getClaimed().forEach(c -> channels.computeIfAbsent(c.key().eventId().toString(), e -> new ArrayList<>())
                .add(c.key().channel().name()));
        batch.spans().end(batch.getNewEvents().stream().map(TransferEvent::getEventIdText)
                .collect(java.util.stream.Collectors.toSet()), channels);
    }

    public long recordsDone() {
        return recordsDone.sum();
    }

    /**
     * Writes each new event's rows, claimed (in the batch's transaction), and keeps the claims for the
     * hand-off after the commit; the opt-outs of the events that leave the channels to us first, in one
     * query.
     */
    public void record(RecordBatch batch) {
        Map<String, Set<Channel>> optOutsByUser = rows.optOuts(batch.getUsersWithoutChannels());
        List<List<Channel>> channels = new ArrayList<>();
        for (TransferEvent event : batch.getNewEvents()) {
            channels.add(planner.channels(event, optOutsByUser.getOrDefault(event.recipient().userId(), Set.of())));
        }
        batch.setClaimed(rows.insertClaimed(batch.getNewEvents(), channels, e -> batch.spans().traceparentOf(e.getEventIdText())));
    }
}
