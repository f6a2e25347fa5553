package dev.notifier.delivery;

import dev.notifier.event.LogContext;
import dev.notifier.trace.TraceParent;
import dev.notifier.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import java.time.Instant;
import java.util.Optional;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bookkeeping of one attempt, step by step as the channel's delivery route calls it: the claim
 * held before the send ({@link #hold}), what the send ended in ({@link #settle}), and its record
 * ({@code mark*}), each with one log line: SENT at DEBUG (the attempt history has it; thousands a
 * second would bury the lines that need a reader), a retry at INFO, a failure at WARN. Reasons mask
 * the recipient's address and token ({@link DeliveryFailures}).
 */
public final class Attempts {

    private static final Logger LOG = LoggerFactory.getLogger("dev.notifier.delivery");

    private final DeliveryLedger ledger;
    private final DeliverySchedule schedule;
    private final DeliveryFailures failures;
    private final DeliveryObserver observer;
    private final Tracing tracing;

    public Attempts(DeliveryLedger ledger, DeliverySchedule schedule, DeliveryFailures failures, DeliveryObserver observer) {
        this(ledger, schedule, failures, observer, Tracing.off());
    }

    public Attempts(DeliveryLedger ledger, DeliverySchedule schedule, DeliveryFailures failures, DeliveryObserver observer,
                    Tracing tracing) {
        this.tracing = tracing;
        this.ledger = ledger;
        this.schedule = schedule;
        this.failures = failures;
        this.observer = observer;
    }

    /**
     * Right before the send: the claim must still be this sender's, with time enough left for the
     * longest send (renewed, fenced by its token, if not). When it is held the send's deadline starts,
     * a margin before the claim ends ({@link SendDeadline}).
     *
     * @return the attempt, or null: another sender has taken the notification over, and this one stops
     */
    public Attempt hold(ClaimedNotification notification, Exchange exchange) {
        LogContext.enter(exchange, notification.key().eventId(), notification.key().channel().name());
        ClaimedNotification held = ledger.holdClaim(notification);
        if (held == null) {
            return null;
        }
        SendDeadline.start(held.claimedUntil().minus(schedule.margin()));
        // the send's span continues the trace its row was recorded in; its traceparent goes to the provider
        Span span = tracing.send(held.trace(), held.key().channel().name(), held.attempt());
        String sendTrace = TraceParent.format(span.getSpanContext());
        if (sendTrace != null) {
            held = held.tracedBy(sendTrace);
        }
        LogContext.trace(held.trace());
        return new Attempt(held, span);
    }

    /**
     * Classifies what the send threw, if anything, and applies the attempt and age limits. The send is
     * over: its deadline ends here, and a failure it caused says so.
     */
    public void settle(@ExchangeProperty(Attempt.PROPERTY) Attempt attempt,
                       @ExchangeProperty(Exchange.EXCEPTION_CAUGHT) Throwable thrown) {
        ClaimedNotification n = attempt.notification();
        Optional<SendDeadline> deadline = SendDeadline.current();
        boolean cutOff = deadline.map(SendDeadline::expired).orElse(false);
        deadline.ifPresent(SendDeadline::close);
        DeliveryFailure failure = null;
        if (thrown != null) {
            DeliveryFailure classified = failures.classify(thrown, n.event());
            if (cutOff) {
                classified = new DeliveryFailure(false, "cut off at its claim's deadline " + deadline.get().endsAt()
                        + " (a send must be over before another sender may take the notification over): "
                        + classified.reason());
            }
            failure = schedule.settle(classified, n.attemptInBudget(), n.budget().from());
        }
        attempt.settled(failure, thrown);
    }

    public void markSent(@ExchangeProperty(Attempt.PROPERTY) Attempt attempt) {
        ClaimedNotification n = attempt.notification();
        Instant now = Instant.now();
        if (!ledger.sent(n, now, attempt.provider())) {
            claimLost(attempt, Attempt.Outcome.SENT);
            return;
        }
        attempt.traced(Attempt.Outcome.SENT.name());
        LOG.debug("{} -> SENT (attempt {})", n.key(), n.attempt());
        if (attempt.providers().size() > 1) {
            // delivered, but a provider is failing: operators want to know before the fallback fails too
            LOG.warn("{} sent through {} after {} did not take it (attempt {})", n.key(), attempt.provider(),
                    String.join(", then ", attempt.providers().subList(0, attempt.providers().size() - 1)), n.attempt());
        }
        observer.sent(n, now);
    }

    public void markFailed(@ExchangeProperty(Attempt.PROPERTY) Attempt attempt) {
        ClaimedNotification n = attempt.notification();
        String reason = attempt.failure().reason();
        if (!ledger.failed(n, reason, Instant.now(), attempt.provider())) {
            claimLost(attempt, Attempt.Outcome.FAILED);
            return;
        }
        attempt.traced(Attempt.Outcome.FAILED.name());
        LOG.warn("{} -> FAILED (attempt {}): {}", n.key(), n.attempt(), reason);
    }

    public void markRetry(@ExchangeProperty(Attempt.PROPERTY) Attempt attempt) {
        ClaimedNotification n = attempt.notification();
        String reason = attempt.failure().reason();
        Instant next = schedule.nextAttemptAt(n.attempt()).toInstant();
        if (attempt.notBefore() != null && attempt.notBefore().isAfter(next)) {
            next = attempt.notBefore();
        }
        if (!ledger.retry(n, reason, next, Instant.now(), attempt.provider(), attempt.pinnedTo())) {
            claimLost(attempt, Attempt.Outcome.RETRY);
            return;
        }
        attempt.traced(Attempt.Outcome.RETRY.name());
        observer.retried(n);
        LOG.info("{} -> PENDING, retry at {} (attempt {}): {}", n.key(), next, n.attempt(), reason);
    }

    /** The outcome came after the claim had been taken over: recorded in the history only, never on the row. */
    private void claimLost(Attempt attempt, Attempt.Outcome outcome) {
        ClaimedNotification n = attempt.notification();
        attempt.traced(outcome.name() + ", claim lost");
        observer.claimLost(n);
        LOG.warn("{}: attempt {} ended {}, but its claim had been taken over before that was recorded; the row keeps"
                + " its current claim's outcome (the attempt is in its history, marked claim lost)", n.key(), n.attempt(),
                outcome);
    }
}
