package dev.notifier.ops;

import dev.notifier.event.Channel;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.util.function.ToDoubleFunction;

/**
 * Notifier's meters. Counters are read from Camel's own route and step statistics, never counted
 * by hand; the per-status gauges and the inbox size from the database (cached, see
 * {@link NotificationCounts#recent()}); the delivery latency timer and retry counter are
 * {@link DeliveryMetrics}, told by delivery as it records each outcome.
 */
public final class NotifierMetrics implements MeterBinder, AutoCloseable {

    private final CamelStatistics statistics;
    private final NotificationCounts counts;
    private final dev.notifier.bounce.Suppressions suppressions;
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

    public NotifierMetrics(CamelStatistics statistics, NotificationCounts counts, dev.notifier.bounce.Suppressions suppressions) {
        this.statistics = statistics;
        this.counts = counts;
        this.suppressions = suppressions;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "notifier.events.consumed",
                "Kafka records that completed intake: recorded, dropped as duplicate or dead-lettered",
                CamelStatistics::consumed);
        counter(registry, "notifier.events.duplicates", "Events dropped because the inbox already had them",
                CamelStatistics::duplicates);
        counter(registry, "notifier.events.conflicts",
                "Records that repeated a recorded eventId with other content: dead-lettered, the first record stands",
                CamelStatistics::conflicts);
        counter(registry, "notifier.dead.letters", "Records published to the dead-letter topic",
                CamelStatistics::deadLettered);
        for (String kind : java.util.List.of("hard", "delayed", "unmatched")) {
            FunctionCounter.builder("notifier.bounces", statistics, s -> s.bounces(kind))
                    .description("Mails read from the bounce mailbox: hard (the email BOUNCED), delayed, unmatched"
                            + " (no delivery status notification, or none for an email sent to that address)")
                    .tag("kind", kind).register(registry);
        }
        if (suppressions != null) {
            FunctionCounter.builder("notifier.emails.suppressed", suppressions, dev.notifier.bounce.Suppressions::suppressedSends)
                    .description("Emails FAILED without contacting the relay: their address bounced for good").register(registry);
        }
        for (Channel channel : counts.channels()) {
            for (String status : NotificationCounts.STATUSES) {
                Gauge.builder("notifier.notifications", counts,
                                c -> c.recent().map(s -> (double) s.count(channel, status)).orElse(Double.NaN))
                        .description("Notifications in the database by channel and status")
                        .tag("channel", channel.name())
                        .tag("status", status)
                        .register(registry);
            }
        }
        Gauge.builder("notifier.inbox.size", counts,
                        c -> c.recent().map(s -> (double) s.inboxSize()).orElse(Double.NaN))
                .description("Events recorded in the inbox (the dedup table)")
                .register(registry);

        new JvmMemoryMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    private void counter(MeterRegistry registry, String name, String description,
                         ToDoubleFunction<CamelStatistics> read) {
        FunctionCounter.builder(name, statistics, read).description(description).register(registry);
    }

    @Override
    public void close() {
        gcMetrics.close();
    }
}
