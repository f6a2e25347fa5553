package dev.notifier.ops;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Failed logins slow a client down: after {@value #FREE_FAILURES} wrong passwords in a row, each
 * further one makes the client wait twice as long before its next try is even checked (1 s, 2 s, 4 s,
 * … up to a minute), so guessing a 12-character password from one address takes lifetimes. Per client
 * address, so a guesser elsewhere cannot lock the operator out; a success forgets the client's
 * failures, and so do {@link #FORGET_AFTER} without one. (Behind a proxy every client is the proxy's
 * address: the proxy's own limits are the ones that tell clients apart.)
 */
final class LoginThrottle {

    static final int FREE_FAILURES = 3;
    static final Duration MAX_WAIT = Duration.ofMinutes(1);
    static final Duration FORGET_AFTER = Duration.ofMinutes(15);
    /** Beyond this many clients with failures, the oldest are forgotten first (a bounded map under a flood). */
    private static final int MAX_CLIENTS = 10_000;

    private final Clock clock;
    private final Map<String, Failures> byClient = new ConcurrentHashMap<>();

    LoginThrottle(Clock clock) {
        this.clock = clock;
    }

    /** How long the client must still wait before a password of theirs is checked; zero when it may try now. */
    Duration waitFor(String client) {
        Failures failures = byClient.get(client);
        if (failures == null) {
            return Duration.ZERO;
        }
        Duration left = Duration.between(clock.instant(), failures.notBefore());
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** Records a wrong password; returns the client's failures in a row and the wait before its next try. */
    Failures failed(String client) {
        Instant now = clock.instant();
        if (byClient.size() >= MAX_CLIENTS) {
            byClient.values().removeIf(f -> f.last().plus(FORGET_AFTER).isBefore(now));
            if (byClient.size() >= MAX_CLIENTS) {
                byClient.clear();
            }
        }
        return byClient.compute(client, (key, before) -> {
            int count = before == null || before.last().plus(FORGET_AFTER).isBefore(now) ? 1 : before.count() + 1;
            return new Failures(count, now, now.plus(wait(count)));
        });
    }

    void succeeded(String client) {
        byClient.remove(client);
    }

    static Duration wait(int failuresInARow) {
        if (failuresInARow <= FREE_FAILURES) {
            return Duration.ZERO;
        }
        int doublings = Math.min(failuresInARow - FREE_FAILURES - 1, 6);
        Duration wait = Duration.ofSeconds(1L << doublings);
        return wait.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : wait;
    }

    record Failures(int count, Instant last, Instant notBefore) {
    }
}
