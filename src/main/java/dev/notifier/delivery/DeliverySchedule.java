package dev.notifier.delivery;

import java.time.Duration;
import java.util.Date;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The clock of delivery: how long a claim lasts, and when a transiently failed notification is
 * tried again (exponential backoff with jitter, capped). Jitter spreads the retries after a
 * provider outage so they do not all land in the same second.
 */
public class DeliverySchedule {

    private final Duration retryBase;
    private final Duration retryMax;
    private final Duration lease;

    public DeliverySchedule(Duration retryBase, Duration retryMax, Duration lease) {
        this.retryBase = retryBase;
        this.retryMax = retryMax;
        this.lease = lease;
    }

    public Date now() {
        return new Date();
    }

    /** A SENDING claim taken now is someone else's to take over after this. */
    public Date claimUntil() {
        return new Date(System.currentTimeMillis() + lease.toMillis());
    }

    /** Delay after the given number of attempts (1 = the first attempt failed). */
    public Duration delayAfter(int attempts) {
        int exponent = Math.min(Math.max(attempts - 1, 0), 30);
        long ceiling = Math.min(retryMax.toMillis(), retryBase.toMillis() * (1L << exponent));
        // "equal jitter": at least half the backoff, so a retry is never immediate
        long half = ceiling / 2;
        return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(ceiling - half + 1));
    }

    public Date nextAttemptAt(int attempts) {
        return new Date(System.currentTimeMillis() + delayAfter(attempts).toMillis());
    }
}
