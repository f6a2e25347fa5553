package dev.notifier.delivery.provider;

import dev.notifier.delivery.ProviderNotTakenException;
import dev.notifier.delivery.SendDeadline;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One provider of a channel (an SMTP relay, a push gateway), shared by every sender of this instance:
 * its circuit, and the pause it asked for. The circuit (resilience4j) opens after
 * {@code failures} consecutive transient failures, lets one probe through after {@code openFor}, and
 * closes when the probe succeeds; while it is open, or while the provider's Retry-After runs, a send
 * is refused at once as not taken (no timeout paid per message) and the route's failover asks the next
 * provider. A permanent rejection counts as an answer: the provider is up, the recipient is the problem.
 */
public final class Provider {

    private static final Logger LOG = LoggerFactory.getLogger("dev.notifier.delivery");
    private static final Duration RATE_WAIT_WITHOUT_DEADLINE = Duration.ofSeconds(5);

    private final String name;
    private final CircuitBreaker circuit;
    private final Duration maxPause;
    private final SharedRate rate;
    private final AtomicReference<Instant> pausedUntil = new AtomicReference<>(Instant.EPOCH);
    final LongAdder answered = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder pausedMillis = new LongAdder();

    public Provider(String name, int failures, Duration openFor, Duration maxPause) {
        this(name, failures, openFor, maxPause, null);
    }

    /** @param rate the provider's rate for the whole deployment, or null for none */
    public Provider(String name, int failures, Duration openFor, Duration maxPause, SharedRate rate) {
        this.name = name;
        this.rate = rate;
        this.maxPause = maxPause;
        this.circuit = CircuitBreaker.of(name, CircuitBreakerConfig.custom()
                // N calls in a row, all failed: N consecutive failures
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(failures).minimumNumberOfCalls(failures).failureRateThreshold(100)
                .waitDurationInOpenState(openFor).permittedNumberOfCallsInHalfOpenState(1)
                .recordExceptions(Throwable.class).build());
        circuit.getEventPublisher().onStateTransition(e -> LOG.warn("provider {}: circuit {} -> {}", name,
                e.getStateTransition().getFromState(), e.getStateTransition().getToState()));
    }

    public String name() {
        return name;
    }

    /**
     * Before a send: refused, as not taken, while the provider is paused or its circuit is open; then,
     * with a rate, waits for its permit (at most half the time the send has left: the send itself needs
     * the rest).
     *
     * @throws SendDeadline.TooLateToSend when the rate left no time to send: nothing was sent
     */
    public void enter() throws SendDeadline.TooLateToSend {
        Instant until = pausedUntil.get();
        if (Instant.now().isBefore(until)) {
            refused.increment();
            throw new ProviderNotTakenException(name, "paused until " + until + ", as it asked (Retry-After)", null, until);
        }
        if (rate != null) {
            rate.acquire(SendDeadline.current().map(d -> d.remaining().dividedBy(2)).orElse(RATE_WAIT_WITHOUT_DEADLINE));
        }
        if (!circuit.tryAcquirePermission()) {
            refused.increment();
            throw new ProviderNotTakenException(name, "its circuit is open after " + circuit.getCircuitBreakerConfig()
                    .getMinimumNumberOfCalls() + " consecutive failures; it is probed again after "
                    + circuit.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1) + " ms", null, null);
        }
    }

    /** The provider answered (yes, or no for good). */
    public void answered() {
        answered.increment();
        circuit.onSuccess(0, TimeUnit.MILLISECONDS);
    }

    /** The provider failed the send: unreachable, "not now", or no answer. */
    public void failed(Throwable failure) {
        failed.increment();
        circuit.onError(0, TimeUnit.MILLISECONDS, failure);
    }

    /** The send ended for a reason of ours (a deadline, no free connection): the provider is not judged. */
    public void released() {
        circuit.releasePermission();
    }

    /** No sender of this instance calls the provider for this long (capped), from now. */
    public Instant pause(Duration requested) {
        Duration pause = requested.compareTo(maxPause) > 0 ? maxPause : requested.isNegative() ? Duration.ZERO : requested;
        Instant until = Instant.now().plus(pause);
        Instant before = pausedUntil.getAndAccumulate(until, (a, b) -> a.isAfter(b) ? a : b);
        if (until.isAfter(before)) {
            pausedMillis.add(pause.toMillis());
            LOG.warn("provider {} asked to wait: no sender of this instance calls it until {}", name, until);
        }
        return until.isAfter(before) ? until : before;
    }

    /** Sends a second for the whole deployment, or 0 for no limit. */
    public int rate() {
        return rate == null ? 0 : rate.perSecond();
    }

    public String circuitState() {
        return circuit.getState().name();
    }
}
