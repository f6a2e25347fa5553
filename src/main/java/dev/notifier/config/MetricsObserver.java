package dev.notifier.config;

import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.delivery.DeliveryObserver;
import java.time.Instant;
import org.apache.camel.spi.Registry;

/**
 * Delivery's outcomes, told to the metrics ({@code deliveryMetrics}), which the ops configuration binds
 * after delivery's beans: found at the first outcome, and nothing told before they exist.
 */
final class MetricsObserver implements DeliveryObserver {

    private final Registry registry;
    private volatile DeliveryObserver found;

    MetricsObserver(Registry registry) {
        this.registry = registry;
    }

    @Override
    public void sent(ClaimedNotification notification, Instant at) {
        DeliveryObserver target = target();
        if (target != null) {
            target.sent(notification, at);
        }
    }

    @Override
    public void retried(ClaimedNotification notification) {
        DeliveryObserver target = target();
        if (target != null) {
            target.retried(notification);
        }
    }

    @Override
    public void claimLost(ClaimedNotification notification) {
        DeliveryObserver target = target();
        if (target != null) {
            target.claimLost(notification);
        }
    }

    private DeliveryObserver target() {
        DeliveryObserver target = found;
        if (target == null) {
            target = registry.lookupByNameAndType("deliveryMetrics", DeliveryObserver.class);
            found = target;
        }
        return target;
    }
}
