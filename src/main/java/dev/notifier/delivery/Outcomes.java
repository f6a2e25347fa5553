package dev.notifier.delivery;

import java.time.Instant;
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

    /** Classifies what the attempt threw, if anything, and applies the attempt and age limits. */
    public void settle(Exchange exchange) {
        ClaimedNotification n = notification(exchange);
        Throwable thrown = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        DeliveryFailure failure = thrown == null ? null
                : schedule.settle(failures.classify(thrown, n.event()), n.attempt(), n.createdAt());
        exchange.setProperty(FAILURE, failure);
        exchange.setProperty(OUTCOME, failure == null ? "SENT" : failure.permanent() ? "FAILED" : "RETRY");
    }

    public void markSent(Exchange exchange) {
        ClaimedNotification n = notification(exchange);
        Instant now = Instant.now();
        ledger.sent(n, now);
        LOG.debug("{} -> SENT (attempt {})", n.key(), n.attempt());
        observer.sent(n, now);
    }

    public void markFailed(Exchange exchange) {
        ClaimedNotification n = notification(exchange);
        String reason = exchange.getProperty(FAILURE, DeliveryFailure.class).reason();
        ledger.failed(n, reason, Instant.now());
        LOG.warn("{} -> FAILED (attempt {}): {}", n.key(), n.attempt(), reason);
    }

    public void markRetry(Exchange exchange) {
        ClaimedNotification n = notification(exchange);
        String reason = exchange.getProperty(FAILURE, DeliveryFailure.class).reason();
        Instant next = schedule.nextAttemptAt(n.attempt()).toInstant();
        ledger.retry(n, reason, next, Instant.now());
        observer.retried(n);
        LOG.info("{} -> PENDING, retry at {} (attempt {}): {}", n.key(), next, n.attempt(), reason);
    }

    private static ClaimedNotification notification(Exchange exchange) {
        return exchange.getProperty(NOTIFICATION, ClaimedNotification.class);
    }
}
