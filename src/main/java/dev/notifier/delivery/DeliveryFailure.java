package dev.notifier.delivery;

/**
 * How a failed attempt ends: {@code permanent} means the provider rejected the notification for
 * good (→ FAILED); otherwise it is tried again later with the same idempotency key.
 *
 * <p>The routes read {@code ${exchangeProperty.failure.permanent}} and {@code .reason}: the record
 * accessors alone. A JavaBean getter beside them ({@code isPermanent()}, {@code getReason()}) makes
 * Camel's bean OGNL fail with AmbiguousMethodCallException.
 */
public record DeliveryFailure(boolean permanent, String reason) {
}
