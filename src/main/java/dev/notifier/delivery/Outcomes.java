package dev.notifier.delivery;

import java.time.Instant;
import java.util.Optional;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one attempt ended in, and its record: the channel's route either returned (the provider
 * accepted) or threw, and {@link #settle} turns that into SENT, RETRY or FAILED, in exchange
 * property {@value #OUTCOME}, for the deliver route's choice; the {@code mark*} steps write it, with
 * one log line each: SENT at DEBUG (the attempt history has it; thousands a second would bury the
 * lines that need a reader), a retry at INFO, a failure at WARN. Reasons mask the recipient's address
 * and token ({@link DeliveryFailures}).
 */
public final class Outcomes {

    /** The {@link ClaimedNotification} being attempted: the channel route replaces the body. */
    public static final String NOTIFICATION = "notification";
    public static final String FAILURE = "failure";
    public static final String OUTCOME = "outcome";
    /** Whether the sender still holds the claim (and may send), set by {@link #checkClaim}. */
    public static final String CLAIM_HELD = "claimHeld";
    private static final Logger LOG = LoggerFactory.getLogger("dev.notifier.delivery");

    private final DeliveryLedger ledger;
    private final DeliverySchedule schedule;
    private final DeliveryFailures failures;
    private final DeliveryObserver observer;

    public Outcomes(DeliveryLedger ledger, DeliverySchedule schedule, DeliveryFailures failures, DeliveryObserver observer) {
        this.ledger = ledger;
        this.schedule = schedule;
        this.failures = failures;
        this.observer = observer;
    }

    /**
     * Right before the send: the claim must still be this sender's, with time enough left for the
     * longest send (renewed, fenced by its token, if not). Property {@value #CLAIM_HELD} says so; when
     * it is held the send's deadline starts, a margin before the claim ends ({@link SendDeadline}).
     */
    public void checkClaim(Exchange exchange) {
        ClaimedNotification held = ledger.holdClaim(notification(exchange));
        exchange.setProperty(CLAIM_HELD, held != null);
        if (held != null) {
            exchange.setProperty(NOTIFICATION, held);
            SendDeadline.start(held.claimedUntil().minus(schedule.margin()));
        }
    }

    /**
     * Classifies what the attempt threw, if anything, and applies the attempt and age limits. The send
     * is over: its deadline ends here, and a failure it caused says so.
     */
    public void settle(Exchange exchange) {
        ClaimedNotification n = notification(exchange);
        Throwable thrown = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        Optional<SendDeadline> deadline = SendDeadline.current();
        boolean cutOff = deadline.map(SendDeadline::expired).orElse(false);
        deadline.ifPresent(SendDeadline::close);
        DeliveryFailure failure = null;
        if (thrown != null) {
            DeliveryFailure classified = failures.classify(thrown, n.event());
            if (cutOff) {
                classified = new DeliveryFailure(false, "cut off at its claim's deadline "
                        + deadline.get().endsAt() + " (a send must be over before another sender may take the"
                        + " notification over): " + classified.reason());
            }
            failure = schedule.settle(classified, n.attempt(), n.createdAt());
        }
        exchange.setProperty(FAILURE, failure);
        exchange.setProperty(OUTCOME, failure == null ? "SENT" : failure.permanent() ? "FAILED" : "RETRY");
    }

    public void markSent(Exchange exchange) {
        ClaimedNotification n = notification(exchange);
        Instant now = Instant.now();
        if (!ledger.sent(n, now)) {
            claimLost(n, "SENT");
            return;
        }
        LOG.debug("{} -> SENT (attempt {})", n.key(), n.attempt());
        observer.sent(n, now);
    }

    public void markFailed(Exchange exchange) {
        ClaimedNotification n = notification(exchange);
        String reason = exchange.getProperty(FAILURE, DeliveryFailure.class).reason();
        if (!ledger.failed(n, reason, Instant.now())) {
            claimLost(n, "FAILED");
            return;
        }
        LOG.warn("{} -> FAILED (attempt {}): {}", n.key(), n.attempt(), reason);
    }

    public void markRetry(Exchange exchange) {
        ClaimedNotification n = notification(exchange);
        String reason = exchange.getProperty(FAILURE, DeliveryFailure.class).reason();
        Instant next = schedule.nextAttemptAt(n.attempt()).toInstant();
        if (!ledger.retry(n, reason, next, Instant.now())) {
            claimLost(n, "RETRY");
            return;
        }
        observer.retried(n);
        LOG.info("{} -> PENDING, retry at {} (attempt {}): {}", n.key(), next, n.attempt(), reason);
    }

    /** The outcome came after the claim had been taken over: recorded in the history only, never on the row. */
    private void claimLost(ClaimedNotification n, String outcome) {
        observer.claimLost(n);
        LOG.warn("{}: attempt {} ended {}, but its claim had been taken over before that was recorded; the row keeps"
                + " its current claim's outcome (the attempt is in its history, marked claim lost)", n.key(), n.attempt(),
                outcome);
    }

    private static ClaimedNotification notification(Exchange exchange) {
        return exchange.getProperty(NOTIFICATION, ClaimedNotification.class);
    }
}
