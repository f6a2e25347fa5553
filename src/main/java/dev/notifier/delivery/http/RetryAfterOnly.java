package dev.notifier.delivery.http;

import org.apache.camel.Exchange;
import org.apache.camel.http.base.HttpHeaderFilterStrategy;

/**
 * camel-http's header filter for the providers' endpoints: what goes out is filtered as camel-http
 * always does; of what comes back, only {@code Retry-After} reaches the exchange, for the pause a 429
 * or 503 asks for. Nothing else of a provider's answer becomes a header a route could read.
 */
public final class RetryAfterOnly extends HttpHeaderFilterStrategy {

    @Override
    public boolean applyFilterToExternalHeaders(String headerName, Object headerValue, Exchange exchange) {
        return !"Retry-After".equalsIgnoreCase(headerName);
    }
}
