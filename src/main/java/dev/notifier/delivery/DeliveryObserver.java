package dev.notifier.delivery;

import java.time.Instant;

/** Told of each attempt's outcome as it is recorded (the metrics listen). */
public interface DeliveryObserver {

    void sent(ClaimedNotification notification, Instant at);

    void retried(ClaimedNotification notification);

    /** An outcome that came after its claim had been taken over, and so changed nothing on the row. */
    default void claimLost(ClaimedNotification notification) {
    }
}
