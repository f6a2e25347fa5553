package dev.notifier.trace;

import io.opentelemetry.api.trace.Span;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The intake spans of a batch of records (batch intake), one per record, ended together once the batch's
 * transaction has committed and its offsets are committed: each says whether its event was new or a
 * duplicate and which channels it was recorded for. An event repeated within the batch continues the
 * first record's trace.
 */
public final class RecordSpans {

    private record Entry(String eventId, Span span) {
    }

    private final List<Entry> spans = new ArrayList<>();
    private final Map<String, String> traceparents = new HashMap<>();

    /** @param eventId the record's event, or null for a record that is dead-lettered */
    public void add(String eventId, Span span) {
        if (!span.getSpanContext().isValid()) {
            return;
        }
        spans.add(new Entry(eventId, span));
        if (eventId == null) {
            span.setAttribute(Tracing.OUTCOME, "dead-lettered");
        } else {
            span.setAttribute(Tracing.EVENT_ID, eventId);
            traceparents.putIfAbsent(eventId, traceparent(span));
        }
    }

    /** The span's {@code traceparent}, or null for no span (tracing off). */
    public static String traceparent(Span span) {
        return span.getSpanContext().isValid() ? TraceParent.format(span.getSpanContext()) : null;
    }

    /** The {@code traceparent} an event's notifications continue, or null while tracing is off. */
    public String traceparentOf(String eventId) {
        return traceparents.get(eventId);
    }

    /**
     * @param recorded the events recorded by this batch (the others were duplicates)
     * @param channels the channels each recorded event got a notification for
     */
    public void end(Set<String> recorded, Map<String, List<String>> channels) {
        Set<String> first = new java.util.HashSet<>();
        for (Entry entry : spans) {
            if (entry.eventId() != null) {
                boolean isNew = recorded.contains(entry.eventId()) && first.add(entry.eventId());
                entry.span().setAttribute(Tracing.DUPLICATE, !isNew);
                if (isNew) {
                    entry.span().setAttribute(Tracing.CHANNELS, List.copyOf(channels.getOrDefault(entry.eventId(), List.of())));
                }
            }
            entry.span().end();
        }
        spans.clear();
    }
}
