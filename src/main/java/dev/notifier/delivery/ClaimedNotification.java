package dev.notifier.delivery;

import dev.notifier.event.TransferEvent;
import java.time.Instant;

/**
 * A notification this instance holds the claim on ({@code SENDING}, its {@code claim_token}), on its
 * way to its channel's senders: what to send, and what the outcome must be recorded against.
 *
 * @param event        the event it is rendered from; {@code null} when the stored payload no longer reads
 * @param unreadable   why the payload does not read, when it does not
 * @param attempt      this attempt's number (the row's {@code attempts} after the claim)
 * @param claimedUntil when another sender may take the claim over: renewed first if it is near
 * @param budget       what the attempt and age limits count from: the row's creation, or its last resend
 * @param pinnedProvider the only provider this attempt may go to, when an earlier attempt's outcome there is
 *                       unknown (it may have taken the message, and only it can recognise the key); else null
 * @param trace        the W3C {@code traceparent} its work continues: the span of the event's intake (stored
 *                     with the row, so a retry joins the same trace), then, once a send holds it, that
 *                     send's span; null while tracing is off
 */
public record ClaimedNotification(NotificationKey key, TransferEvent event, String unreadable, int attempt,
                                  Instant createdAt, String claimToken, Instant claimedUntil, Budget budget,
                                  String pinnedProvider, String trace) {

    public ClaimedNotification(NotificationKey key, TransferEvent event, String unreadable, int attempt, Instant createdAt,
                               String claimToken, Instant claimedUntil, Budget budget, String pinnedProvider) {
        this(key, event, unreadable, attempt, createdAt, claimToken, claimedUntil, budget, pinnedProvider, null);
    }

    public ClaimedNotification(NotificationKey key, TransferEvent event, String unreadable, int attempt, Instant createdAt,
                               String claimToken, Instant claimedUntil, Budget budget) {
        this(key, event, unreadable, attempt, createdAt, claimToken, claimedUntil, budget, null);
    }

    /** A notification whose budget is its first: counted from its creation. */
    public ClaimedNotification(NotificationKey key, TransferEvent event, String unreadable, int attempt, Instant createdAt,
                               String claimToken, Instant claimedUntil) {
        this(key, event, unreadable, attempt, createdAt, claimToken, claimedUntil, new Budget(createdAt, 0));
    }

    /**
     * Where a row's attempt and age limits count from (notifier.delivery.max-attempts, max-age): its
     * creation, or the operator's last resend of it, which starts a fresh budget.
     *
     * @param from           the budget's start
     * @param attemptsBefore attempts made before it (the row's attempts at the resend)
     */
    public record Budget(Instant from, int attemptsBefore) {
    }

    /** For logs and exceptions: the key and the claim; the event masked, and only whether its payload failed to read. */
    @Override
    public String toString() {
        return "ClaimedNotification[" + key + ", attempt " + attempt + ", claimed until " + claimedUntil + ", "
                + (event != null ? event : "unreadable payload") + "]";
    }

    /** This attempt's number within its budget. */
    public int attemptInBudget() {
        return attempt - budget.attemptsBefore();
    }

    /** The event to render; a payload that no longer reads can never be sent. */
    public TransferEvent readEvent() {
        if (event == null) {
            throw new UndeliverableException(unreadable);
        }
        return event;
    }

    public ClaimedNotification renewedUntil(Instant until) {
        return new ClaimedNotification(key, event, unreadable, attempt, createdAt, claimToken, until, budget, pinnedProvider,
                trace);
    }

    /** The same claim, its work continuing the given trace (a send's span). */
    public ClaimedNotification tracedBy(String traceparent) {
        return new ClaimedNotification(key, event, unreadable, attempt, createdAt, claimToken, claimedUntil, budget,
                pinnedProvider, traceparent);
    }
}
