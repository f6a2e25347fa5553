package dev.notifier.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The clock of delivery: how long a claim lasts, when a transiently failed notification is tried
 * again (exponential backoff with jitter, capped), and when trying stops. Jitter spreads the
 * retries after a provider outage so they do not all land in the same second.
 *
 * <p>Every notification ends: after {@code maxAttempts} attempts, or once it could not be sent within
 * {@code maxAge} of being recorded, a transient failure becomes FAILED. A "transfer completed" that
 * arrives a day late is worse than none: the customer may already have acted on its absence.
 */
public class DeliverySchedule {

    public static final int DEFAULT_MAX_ATTEMPTS = 50;
    public static final Duration DEFAULT_MAX_AGE = Duration.ofHours(24);

    private final Duration retryBase;
    private final Duration retryMax;
    private final Duration lease;
    private final int maxAttempts;
    private final Duration maxAge;
    private volatile Duration renewWithin;

    public DeliverySchedule(Duration retryBase, Duration retryMax, Duration lease) {
        this(retryBase, retryMax, lease, DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_AGE);
    }

    public DeliverySchedule(Duration retryBase, Duration retryMax, Duration lease, int maxAttempts, Duration maxAge) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("notifier.delivery.max-attempts must be at least 1, not " + maxAttempts);
        }
        this.retryBase = retryBase;
        this.retryMax = retryMax;
        this.lease = lease;
        this.maxAttempts = maxAttempts;
        this.maxAge = maxAge;
        this.renewWithin = lease.dividedBy(2);
    }

    /** A SENDING claim taken now is someone else's to take over after this. */
    public Date claimUntil() {
        return new Date(System.currentTimeMillis() + lease.toMillis());
    }

    /** Delay after the given number of attempts (1 = the first attempt failed). */
    public Duration delayAfter(int attempts) {
        long ceiling = ceilingAfter(attempts);
        // "equal jitter": at least half the backoff, so a retry is never immediate
        long half = ceiling / 2;
        return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(ceiling - half + 1));
    }

    public Date nextAttemptAt(int attempts) {
        return new Date(System.currentTimeMillis() + delayAfter(attempts).toMillis());
    }

    /**
     * What a failed attempt means for the row: a transient failure stays one while another attempt is
     * allowed and could still happen within the age limit; otherwise it becomes permanent, its reason
     * saying which limit ended it. {@code null} (the attempt succeeded) and permanent failures pass.
     */
    public DeliveryFailure settle(DeliveryFailure failure, int attempt, Instant createdAt) {
        if (failure == null || failure.permanent()) {
            return failure;
        }
        if (attempt >= maxAttempts) {
            return new DeliveryFailure(true, "gave up after " + attempt + " attempts (notifier.delivery.max-attempts): "
                    + failure.reason());
        }
        long latestRetry = System.currentTimeMillis() + ceilingAfter(attempt);
        if (createdAt != null && latestRetry > createdAt.toEpochMilli() + maxAge.toMillis()) {
            return new DeliveryFailure(true, "gave up: a retry would come more than " + describe(maxAge)
                    + " after the notification was recorded (notifier.delivery.max-age): " + failure.reason());
        }
        return failure;
    }

    /** How long a claim lasts (notifier.delivery.lease-seconds). */
    public Duration lease() {
        return lease;
    }

    /**
     * How long before its claim ends a send must be over ({@link SendDeadline}): the time to record its
     * outcome while the claim is still its own, and for the clocks of instances to differ. 5 s, or a
     * tenth of a lease shorter than 50 s.
     */
    public Duration margin() {
        Duration tenth = lease.dividedBy(10);
        return tenth.compareTo(Duration.ofSeconds(5)) < 0 ? tenth : Duration.ofSeconds(5);
    }

    /**
     * A claim with less than this left is renewed before its send: it may have waited in a queue. Half
     * the lease until {@link #longestSend} is known.
     */
    public Duration renewWithin() {
        return renewWithin;
    }

    /**
     * The longest any send may take, by the timeouts of the routes' endpoints (SendWithinLease): a send
     * then starts with at least that much of its claim left, plus the margin, so it can be over before
     * its deadline. A send longer than the lease allows starts with all of it but the margin.
     */
    public void longestSend(Duration longest) {
        Duration wanted = longest.plus(margin());
        Duration most = lease.minus(margin());
        renewWithin = wanted.compareTo(most) > 0 ? most : wanted;
    }

    /**
     * Why a row the retry poller found must not be sent again, or {@code null} when it may: it is older
     * than the age limit (the service or its provider was down that long), or it has had every
     * attempt and its last sender stopped mid-send.
     */
    public String expiredReason(Date createdAt, int attempts, boolean claimExpired) {
        if (createdAt != null && createdAt.getTime() + maxAge.toMillis() < System.currentTimeMillis()) {
            return "expired: not delivered within " + describe(maxAge) + " of being recorded (notifier.delivery.max-age)";
        }
        if (attempts >= maxAttempts) {
            return "gave up after " + attempts + " attempts (notifier.delivery.max-attempts)"
                    + (claimExpired ? "; the last one's outcome is unknown: its sender stopped mid-send" : "");
        }
        return null;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    private long ceilingAfter(int attempts) {
        int exponent = Math.min(Math.max(attempts - 1, 0), 30);
        return Math.min(retryMax.toMillis(), retryBase.toMillis() * (1L << exponent));
    }

    private static String describe(Duration age) {
        return age.toHours() >= 1 && age.toMinutesPart() == 0 && age.toSecondsPart() == 0 ? age.toHours() + " h"
                : age.toSeconds() + " s";
    }
}
