package dev.notifier.inbox;

import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.trace.TraceParent;
import dev.notifier.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import java.util.Collection;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.support.SynchronizationAdapter;

/**
 * A record's intake span (per-event intake), kept in property {@value #SPAN} from the parse to the end of
 * the exchange, after the commit and the hand-off: then it learns whether the event was a duplicate,
 * which channels it was recorded for, or that it was dead-lettered, and ends.
 */
public final class IntakeTrace {

    public static final String SPAN = "intakeSpan";

    private IntakeTrace() {
    }

    /** Starts the span of the record in the exchange (a no-op span while tracing is off). */
    public static Span start(Exchange exchange, Tracing tracing) {
        if (!tracing.enabled()) {
            return Span.getInvalid();
        }
        Span span = tracing.intake(exchange.getMessage());
        exchange.setProperty(SPAN, span);
        exchange.getExchangeExtension().addOnCompletion(new SynchronizationAdapter() {
            @Override
            public void onDone(Exchange done) {
                end(span, done.getProperty(Exchange.DUPLICATE_MESSAGE, Boolean.class),
                        done.getProperty(NotificationRows.CLAIMED, Collection.class),
                        done.getProperty(DeadLetterPublisher.DEAD_LETTER_REASON, String.class), done.isFailed());
            }
        });
        return span;
    }

    /** The {@code traceparent} the event's notifications continue, or null while tracing is off. */
    public static String traceparent(Exchange exchange) {
        Span span = exchange.getProperty(SPAN, Span.class);
        return span == null ? null : TraceParent.format(span.getSpanContext());
    }

    static void end(Span span, Boolean duplicate, Collection<?> claimed, String deadLetter, boolean failed) {
        span.setAttribute(Tracing.DUPLICATE, Boolean.TRUE.equals(duplicate));
        if (claimed != null) {
            List<String> channels = claimed.stream().map(c -> ((ClaimedNotification) c).key().channel().name()).toList();
            span.setAttribute(Tracing.CHANNELS, channels);
        }
        if (deadLetter != null) {
            span.setAttribute(Tracing.OUTCOME, "dead-lettered");
        }
        if (failed) {
            span.setStatus(StatusCode.ERROR, "not recorded: the record is read again");
        }
        span.end();
    }
}
