package dev.notifier.delivery;

import java.time.Instant;

/** Told of each attempt's outcome as it is recorded (the metrics listen). */
public interface DeliveryObserver {

    void sent(ClaimedNotification notification, Instant at);

    void retried(ClaimedNotification notification);
}
