package dev.notifier.delivery.http;

import dev.notifier.event.Channel;
import java.util.Optional;
import java.util.function.Function;

/**
 * What Notifier needs to know of a channel whose provider speaks HTTP, from
 * {@code notifier.channel.<channel>.*}: its bearer token, what its provider is
 * called in a reason, and which statuses mean delivered and which are worth another try (any other
 * is a rejection for good).
 */
public record HttpChannel(Channel channel, String provider, String authorization, StatusSet delivered, StatusSet retried) {

    /** The request body's template, in templates/<channel>/<language>/. */
    public static final String REQUEST = "request.json";

    public static HttpChannel from(Channel channel, Function<String, Optional<String>> property) {
        String prefix = "notifier.channel." + channel.id() + ".";
        String token = property.apply(prefix + "token").map(String::strip).filter(t -> !t.isEmpty()).orElse(null);
        return new HttpChannel(channel,
                property.apply(prefix + "provider").orElse(channel.name() + " provider"),
                token == null ? null : "Bearer " + token,
                StatusSet.parse(property.apply(prefix + "delivered").orElse("2xx"), prefix + "delivered"),
                StatusSet.parse(property.apply(prefix + "retry").orElse("408,429,5xx"), prefix + "retry"));
    }

    @Override
    public String toString() {
        // the bearer token stays out of logs and messages
        return "HttpChannel[" + channel + ", " + provider + ", delivered " + delivered + ", retry " + retried + "]";
    }
}
