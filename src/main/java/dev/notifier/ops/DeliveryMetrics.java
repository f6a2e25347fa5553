package dev.notifier.ops;

import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.delivery.DeliveryObserver;
import dev.notifier.event.Channel;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long a notification took from its row being created (the event recorded) to the provider
 * accepting it, retries included. Fed by the delivery routes (deliver-<channel>) right after {@code mark-sent-<channel>}.
 */
public final class DeliveryMetrics implements DeliveryObserver {

    public static final String METRIC = "notifier.delivery.latency";

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryMetrics.class);
    private static final Duration[] BUCKETS = {Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30)};

    private final Map<String, Timer> timers = new HashMap<>();
    private final Counter retries;
    private final Counter claimsLost;

    /** Registers one timer per channel at once, so the metric is there (at zero) before the first send. */
    public DeliveryMetrics(MeterRegistry registry, List<Channel> channels) {
        retries = Counter.builder("notifier.delivery.retries")
                .description("Delivery attempts that failed transiently and were rescheduled")
                .register(registry);
        claimsLost = Counter.builder("notifier.delivery.claims.lost")
                .description("Attempts whose outcome came after their claim had been taken over, so it did not count"
                        + " (should stay 0: a send is cut off before its claim ends)")
                .register(registry);
        for (Channel channel : channels) {
            timers.put(channel.name(), Timer.builder(METRIC)
                    .description("From the notification's row being created to the provider accepting it")
                    .tag("channel", channel.name())
                    .serviceLevelObjectives(BUCKETS)
                    .register(registry));
        }
    }

    @Override
    public void retried(ClaimedNotification notification) {
        retries.increment();
    }

    @Override
    public void claimLost(ClaimedNotification notification) {
        claimsLost.increment();
    }

    @Override
    public void sent(ClaimedNotification notification, Instant at) {
        // a metric must never fail a delivery that has already been recorded as SENT
        try {
            Duration latency = Duration.between(notification.createdAt(), at);
            Timer timer = timers.get(notification.key().channel().name());
            timer.record(latency.isNegative() ? Duration.ZERO : latency);
        } catch (RuntimeException e) {
            LOG.warn("delivery latency of {} not recorded: {}", notification.key(), e.toString());
        }
    }
}
