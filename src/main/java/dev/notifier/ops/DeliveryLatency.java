package dev.notifier.ops;

import dev.notifier.event.Channel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.TemporalAccessor;
import java.util.Date;
import org.apache.camel.ExchangeProperty;
import org.apache.camel.Header;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long a notification took from its row being created (the event recorded) to the provider
 * accepting it, retries included. Fed by send-notification right after {@code mark-sent}.
 */
public final class DeliveryLatency {

    public static final String METRIC = "notifier.delivery.latency";

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryLatency.class);
    private static final Duration[] BUCKETS = {Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30)};

    private final Map<Channel, Timer> timers = new EnumMap<>(Channel.class);

    /** Registers one timer per channel at once, so the metric is there (at zero) before the first send. */
    public DeliveryLatency(MeterRegistry registry) {
        for (Channel channel : Channel.values()) {
            timers.put(channel, Timer.builder(METRIC)
                    .description("From the notification's row being created to the provider accepting it")
                    .tag("channel", channel.name())
                    .serviceLevelObjectives(BUCKETS)
                    .register(registry));
        }
    }

    /**
     * @param createdAt the row's created_at, as the JDBC driver gave it (PostgreSQL: a Timestamp,
     *                  H2: an OffsetDateTime), or the fast path's own Date
     */
    public void record(@ExchangeProperty("channel") String channel, @ExchangeProperty("createdAt") Object createdAt,
            @Header("now") Date sentAt) {
        // a metric must never fail a delivery that has already been recorded as SENT
        try {
            Duration latency = Duration.between(instant(createdAt), sentAt.toInstant());
            timers.get(Channel.valueOf(channel)).record(latency.isNegative() ? Duration.ZERO : latency);
        } catch (RuntimeException e) {
            LOG.warn("delivery latency of a {} notification not recorded: {}", channel, e.toString());
        }
    }

    private static Instant instant(Object value) {
        if (value instanceof Date date) {
            return date.toInstant();
        }
        if (value instanceof TemporalAccessor temporal) {
            return Instant.from(temporal);
        }
        throw new IllegalArgumentException("not a timestamp: " + value);
    }
}
