package dev.notifier.delivery.provider;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * A provider's {@code Retry-After} (RFC 9110): delta-seconds or an HTTP-date. Absent or unreadable,
 * the pause is {@code fallback} (our own); the cap is applied by the provider.
 */
public record RetryAfter(Duration fallback) {

    public Duration delay(String header) {
        if (header == null || header.isBlank()) {
            return fallback;
        }
        String value = header.strip();
        try {
            return Duration.ofSeconds(Long.parseLong(value));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                Duration delay = Duration.between(Instant.now(), at);
                return delay.isNegative() ? Duration.ZERO : delay;
            } catch (DateTimeParseException notADate) {
                return fallback;
            }
        }
    }
}
