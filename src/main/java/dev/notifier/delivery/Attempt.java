package dev.notifier.delivery;

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
    private DeliveryFailure failure;
    private Outcome outcome;

    Attempt(ClaimedNotification notification) {
        this.notification = notification;
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

    void settled(DeliveryFailure failure) {
        this.failure = failure;
        this.outcome = failure == null ? Outcome.SENT : failure.permanent() ? Outcome.FAILED : Outcome.RETRY;
    }

    @Override
    public String toString() {
        return notification.key() + " attempt " + notification.attempt() + (outcome == null ? "" : " " + outcome);
    }
}
