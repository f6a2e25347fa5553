package dev.notifier.inbox;

import java.time.Duration;

/**
 * How long after an event was recorded its record can still come back and be accepted: a copy
 * redelivered, replayed from the DLQ or published again is dead-lettered as too old once its
 * {@code occurredAt} is more than {@code notifier.event.max-past} ago, and no sooner. Until then,
 * only the inbox key (or the event's rows) can tell it is a duplicate, so whatever purges them must
 * wait at least this long: {@code max-past}, plus {@code max-future} (an event may be recorded that
 * long before its {@code occurredAt}), plus a day for clocks and lag. NServiceBus states the same
 * rule for its outbox: keep deduplication data longer than the longest retry, manual ones included.
 */
public record DedupWindow(Duration maxPast, Duration maxFuture) {

    static final Duration MARGIN = Duration.ofDays(1);

    public Duration length() {
        return maxPast.plus(maxFuture).plus(MARGIN);
    }

    /**
     * The retention, refused when it would forget a key while its record can still be accepted.
     *
     * @param what the setting or option that gave it, for the message
     */
    public Duration requireCoveredBy(Duration retention, String what) {
        if (retention.compareTo(length()) < 0) {
            throw new IllegalArgumentException(what + " (" + days(retention) + ") is shorter than the dedup window, "
                    + days(length()) + ": events are accepted up to notifier.event.max-past (" + days(maxPast)
                    + ") old and notifier.event.max-future (" + days(maxFuture) + ") ahead, plus a day's margin, and a"
                    + " record that comes back after its inbox key is gone is recorded and delivered a second time."
                    + " Keep it at least " + days(length()) + ", or lower notifier.event.max-past");
        }
        return retention;
    }

    private static String days(Duration d) {
        return d.toHours() % 24 == 0 ? d.toDays() + "d" : d.toHours() + "h";
    }
}
