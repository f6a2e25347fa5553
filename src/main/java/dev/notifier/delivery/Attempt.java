package dev.notifier.delivery;

import dev.notifier.trace.Tracing;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/**
 * One attempt at a claimed notification, carried beside the exchange's body (exchange property
 * {@value #PROPERTY}) while the channel's route replaces the body with what it sends: the claim it runs
 * under (renewed if it was near its end), and once the send is over, what it ended in. The delivery
 * route reads {@link #outcome()} to choose where the attempt is recorded; the beans take and return it.
 */
public final class Attempt {

    /** The exchange property the attempt travels in, from the claim check to the outcome's record. */
    public static final String PROPERTY = "attempt";

    /** Where an attempt ends: the provider took it; it is tried again later (same key); or never again. */
    public enum Outcome { SENT, RETRY, FAILED }

    private final ClaimedNotification notification;
    private final Span span;
    private final java.util.List<String> providers = new java.util.ArrayList<>(2);
    private DeliveryFailure failure;
    private Outcome outcome;
    private String pinnedTo;
    private java.time.Instant notBefore;

    Attempt(ClaimedNotification notification) {
        this(notification, Span.getInvalid());
    }

    /** @param span the send's span (a no-op one while tracing is off), ended with the outcome's record */
    Attempt(ClaimedNotification notification, Span span) {
        this.notification = notification;
        this.span = span;
        // an outcome once unknown at a provider stays unknown: a later "not taken" there does not lift the pin
        this.pinnedTo = notification.pinnedProvider();
    }

    /** The {@code traceparent} a provider's request carries (this send's span), or null while tracing is off. */
    public String traceparent() {
        return span.getSpanContext().isValid() ? notification.trace() : null;
    }

    /** Ends the send's span with what was recorded (the outcome, or that the claim had been lost meanwhile). */
    void traced(String recorded) {
        span.setAttribute(Tracing.OUTCOME, recorded);
        if (!recorded.equals(Outcome.SENT.name())) {
            span.setStatus(StatusCode.ERROR, recorded);
        }
        span.end();
    }

    public ClaimedNotification notification() {
        return notification;
    }

    public NotificationKey key() {
        return notification.key();
    }

    /** {@link NotificationKey#idempotencyKey()}: for a provider's idempotency header. */
    public String idempotencyKey() {
        return notification.key().idempotencyKey();
    }

    /** {@link NotificationKey#retryKey()} as text: for a provider that takes a UUID (LINE). */
    public String retryKey() {
        return notification.key().retryKey().toString();
    }

    /** Null until the send is over ({@link Attempts#settle}). */
    public Outcome outcome() {
        return outcome;
    }

    /** Why it did not end SENT; null when it did. */
    public DeliveryFailure failure() {
        return failure;
    }

    /**
     * A provider is about to be asked ({@code Providers.enter}).
     *
     * @return the provider asked before it in this attempt, when this is a failover; otherwise null
     */
    public synchronized String tried(String provider) {
        String previous = providers.isEmpty() ? null : providers.get(providers.size() - 1);
        providers.add(provider);
        span.setAttribute(Tracing.PROVIDER, provider);
        if (previous != null && !provider.equals(previous)) {
            span.addEvent("failover", Attributes.of(Tracing.PROVIDER, provider));
        }
        return provider.equals(previous) ? null : previous;
    }

    /** The provider asked last, the one whose answer (or silence) this attempt ended with; null before any. */
    public synchronized String provider() {
        return providers.isEmpty() ? null : providers.get(providers.size() - 1);
    }

    /** Every provider asked, in order: more than one when the first did not take it. */
    public synchronized java.util.List<String> providers() {
        return java.util.List.copyOf(providers);
    }

    /** The provider the next attempt must go to, when this one's outcome there is unknown; else null. */
    public String pinnedTo() {
        return pinnedTo;
    }

    /** When the provider asked to be called again (Retry-After); null when it did not. */
    public java.time.Instant notBefore() {
        return notBefore;
    }

    void settled(DeliveryFailure failure, Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutcomeUnknownException unknown && pinnedTo == null) {
                pinnedTo = unknown.provider();
            }
            if (t instanceof ProviderNotTakenException notTaken && notTaken.notBefore() != null && notBefore == null) {
                notBefore = notTaken.notBefore();
            }
        }
        settled(failure);
    }

    void settled(DeliveryFailure failure) {
        this.failure = failure;
        this.outcome = failure == null ? Outcome.SENT : failure.permanent() ? Outcome.FAILED : Outcome.RETRY;
    }

    @Override
    public String toString() {
        return notification.key() + " attempt " + notification.attempt() + (outcome == null ? "" : " " + outcome);
    }
}
