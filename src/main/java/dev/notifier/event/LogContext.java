package dev.notifier.event;

import java.util.UUID;
import org.apache.camel.Exchange;
import org.apache.camel.support.SynchronizationAdapter;
import org.slf4j.MDC;

/**
 * The event (and channel) an exchange is about, in the logging MDC of the thread that works on it, so
 * every line logged meanwhile, Notifier's and Camel's, carries {@code eventId} and {@code channel}
 * (fields of their own in the JSON log). Cleared when the exchange completes. Camel's own MDC
 * support is camel-mdc, not served at this Camel version; the core switch
 * ({@code camel.main.use-mdc-logging}) is deprecated and says so at every start.
 */
public final class LogContext {

    public static final String EVENT_ID = "eventId";
    public static final String CHANNEL = "channel";
    public static final String TRACE_ID = "traceId";

    private static final SynchronizationAdapter CLEAR = new SynchronizationAdapter() {
        @Override
        public void onDone(Exchange exchange) {
            clear();
        }
    };

    private LogContext() {
    }

    /** Nothing about any event: before what may turn out to be about none (a record that does not parse). */
    public static void clear() {
        MDC.remove(EVENT_ID);
        MDC.remove(CHANNEL);
        MDC.remove(TRACE_ID);
    }

    /** The trace the work continues (its {@code traceparent}), while tracing is on; null leaves none. */
    public static void trace(String traceparent) {
        String traceId = dev.notifier.trace.TraceParent.traceId(traceparent);
        if (traceId == null) {
            MDC.remove(TRACE_ID);
        } else {
            MDC.put(TRACE_ID, traceId);
        }
    }

    /** @param channel {@code null} while the event has no channel yet (intake) */
    public static void enter(Exchange exchange, UUID eventId, String channel) {
        MDC.put(EVENT_ID, eventId.toString());
        if (channel == null) {
            MDC.remove(CHANNEL);
        } else {
            MDC.put(CHANNEL, channel);
        }
        if (!exchange.getExchangeExtension().containsOnCompletion(CLEAR)) {
            exchange.getExchangeExtension().addOnCompletion(CLEAR);
        }
    }
}
