package dev.notifier.delivery;

import java.time.Instant;

/**
 * The provider surely did not take the message: it could not be reached, its TLS handshake failed,
 * it answered "not now" before the message was complete (an SMTP 4xx before the final dot was
 * acknowledged, HTTP 429 or 503), or its circuit is open or it asked us to pause. The only outcome
 * after which the next provider of the channel may be asked (the send route's failover): a second
 * provider cannot de-duplicate the first one's key, so anything less certain stays with the first.
 */
public class ProviderNotTakenException extends RuntimeException {

    private final String provider;
    private final Instant notBefore;

    /** @param notBefore when the provider asked to be called again (Retry-After), or null */
    public ProviderNotTakenException(String provider, String reason, Throwable cause, Instant notBefore) {
        super(provider + " did not take it: " + reason, cause);
        this.provider = provider;
        this.notBefore = notBefore;
    }

    public String provider() {
        return provider;
    }

    public Instant notBefore() {
        return notBefore;
    }
}
