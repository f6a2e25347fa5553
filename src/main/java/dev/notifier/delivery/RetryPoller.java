package dev.notifier.delivery;

import java.util.function.Supplier;

/**
 * The retry poller's step (routes/retry-due-notifications): the next batch of due retries and expired
 * claims, claimed, as the body its hand-off splits; {@link DeliveryLedger.DueBatch#more()} says whether
 * to claim the next batch at once.
 */
public final class RetryPoller {

    private final Supplier<DeliveryLedger.DueBatch> claimNext;

    public RetryPoller(Supplier<DeliveryLedger.DueBatch> claimNext) {
        this.claimNext = claimNext;
    }

    public DeliveryLedger.DueBatch next() {
        return claimNext.get();
    }
}
