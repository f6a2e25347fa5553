package dev.notifier.delivery;

/**
 * How a failed attempt ends: {@code permanent} means the provider rejected the notification for
 * good (→ FAILED); otherwise it is tried again later with the same idempotency key.
 */
public record DeliveryFailure(boolean permanent, String reason) {

    public boolean isPermanent() {
        return permanent;
    }

    public String getReason() {
        return reason;
    }
}
