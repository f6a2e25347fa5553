package dev.notifier.delivery;

import dev.notifier.event.Channel;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * One notification: an event on one channel. The unit a customer receives, the unit the database
 * keeps unique ({@code UNIQUE (event_id, channel)}), and the unit of idempotency towards providers:
 * every key a provider sees is built here, from this pair alone, so every attempt carries the same.
 */
public record NotificationKey(UUID eventId, Channel channel) {

    /** {@code <eventId>:<CHANNEL>}: the push gateway's Idempotency-Key and the email's X-Notification-Key. */
    public String idempotencyKey() {
        return eventId + ":" + channel;
    }

    /** A name-based (version 3) UUID of {@link #idempotencyKey()}: for providers that take a UUID (LINE's X-Line-Retry-Key). */
    public UUID retryKey() {
        return UUID.nameUUIDFromBytes(idempotencyKey().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "event " + eventId + " channel " + channel;
    }
}
