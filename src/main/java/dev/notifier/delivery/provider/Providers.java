package dev.notifier.delivery.provider;

import dev.notifier.delivery.Attempt;
import dev.notifier.delivery.OutcomeUnknownException;
import dev.notifier.delivery.ProviderNotTakenException;
import dev.notifier.delivery.ProviderRejectedException;
import dev.notifier.delivery.SendDeadline;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLHandshakeException;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;

/**
 * Every provider of every channel, by name ({@code email-primary}, {@code push-fallback}, ...), and
 * the steps the provider routes call around a send: {@link #enter} before it, and for HTTP the
 * reading of what came back ({@link #answered}) or of what was thrown instead ({@link #unanswered}).
 * Each turns the outcome into one of three for the send route's failover: taken or rejected (an
 * answer), surely not taken ({@link ProviderNotTakenException}: the next provider may be asked), or
 * unknown ({@link OutcomeUnknownException}: only this provider, later, with the same key).
 */
public final class Providers implements MeterBinder {

    private final Map<String, Provider> providers = new LinkedHashMap<>();
    private final Map<String, LongAdder> failovers = new ConcurrentHashMap<>();
    private final RetryAfter retryAfter;

    public Providers(RetryAfter retryAfter) {
        this.retryAfter = retryAfter;
    }

    public Providers add(Provider provider) {
        providers.put(provider.name(), provider);
        return this;
    }

    public Provider get(String name) {
        Provider provider = providers.get(name);
        if (provider == null) {
            throw new IllegalStateException("no provider " + name + " is configured");
        }
        return provider;
    }

    /**
     * Before a provider is asked: a notification whose last outcome is unknown at another provider goes
     * only there; a paused provider or an open circuit is refused at once, as not taken.
     */
    public void enter(@ExchangeProperty(Attempt.PROPERTY) Attempt attempt, String provider) throws SendDeadline.TooLateToSend {
        String pinned = attempt.notification().pinnedProvider();
        if (pinned != null && !pinned.equals(provider) && providers.containsKey(pinned)) {
            throw new ProviderNotTakenException(provider, "the last attempt's outcome at " + pinned + " is unknown, so"
                    + " only " + pinned + " is asked again (it can recognise the key; " + provider + " cannot)", null, null);
        }
        String previous = attempt.tried(provider);
        if (previous != null) {
            failovers.computeIfAbsent(previous + "\u0000" + provider, k -> new LongAdder()).increment();
        }
        get(provider).enter();
    }

    /**
     * An HTTP provider's answer: delivered, or refused by the channel's rules ({@code check}). A 429 or
     * 503 is a "not now" that lets the next provider be asked; a 429 also pauses the provider, for every
     * sender of this instance, until its Retry-After.
     */
    public void answered(Exchange exchange, String name, Runnable check) {
        Provider provider = get(name);
        try {
            check.run();
            provider.answered();
        } catch (ProviderRejectedException rejected) {
            if (rejected.isPermanent()) {
                provider.answered();
                throw rejected;
            }
            provider.failed(rejected);
            Integer status = exchange.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE, Integer.class);
            if (status != null && status == 429) {
                var until = provider.pause(retryAfter.delay(exchange.getMessage().getHeader("Retry-After", String.class)));
                throw new ProviderNotTakenException(name, rejected.getMessage(), rejected, until);
            }
            if (status != null && status == 503) {
                throw new ProviderNotTakenException(name, rejected.getMessage(), rejected, null);
            }
            throw rejected;
        }
    }

    /** What an HTTP provider's call threw: before the request went out it surely took nothing. */
    public void unanswered(Exception thrown, String name) throws Exception {
        Provider provider = get(name);
        if (thrown instanceof SendDeadline.TooLateToSend) {
            provider.released();
            throw thrown;
        }
        provider.failed(thrown);
        if (beforeTheRequest(thrown)) {
            throw new ProviderNotTakenException(name, thrown.getClass().getSimpleName() + ": " + thrown.getMessage(),
                    thrown, null);
        }
        throw new OutcomeUnknownException(name, thrown);
    }

    /** Connecting, resolving or the TLS handshake failed: nothing of the request was written. */
    static boolean beforeTheRequest(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof NoRouteToHostException
                    || t instanceof SSLHandshakeException
                    || t instanceof org.apache.hc.client5.http.ConnectTimeoutException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        providers.values().forEach(p -> {
            counter(registry, p, "answered", p.answered);
            counter(registry, p, "failed", p.failed);
            counter(registry, p, "refused", p.refused);
            Gauge.builder("notifier.provider.circuit.open", p, x -> "CLOSED".equals(x.circuitState()) ? 0 : 1)
                    .description("1 while the provider's circuit is open or half-open").tag("provider", p.name())
                    .register(registry);
            FunctionCounter.builder("notifier.provider.paused.seconds", p.pausedMillis, m -> m.sum() / 1000.0)
                    .description("Time the provider was paused at its own request (Retry-After)").tag("provider", p.name())
                    .register(registry);
            providers.values().stream().filter(to -> to != p).forEach(to -> FunctionCounter.builder(
                            "notifier.provider.failovers", failovers.computeIfAbsent(p.name() + "\u0000" + to.name(),
                                    k -> new LongAdder()), LongAdder::sum)
                    .description("Sends that went on to the next provider").tag("from", p.name()).tag("to", to.name())
                    .register(registry));
        });
    }

    private static void counter(MeterRegistry registry, Provider p, String outcome, LongAdder count) {
        FunctionCounter.builder("notifier.provider.sends", count, LongAdder::sum)
                .description("Sends by provider and outcome: answered (taken or rejected for good), failed, refused"
                        + " (circuit open or paused)").tag("provider", p.name()).tag("outcome", outcome).register(registry);
    }

    /** For tests and the status page: the names, in failover order per channel. */
    public java.util.Set<String> names() {
        return providers.keySet();
    }

}
