package dev.notifier.delivery;

/**
 * The request (or the final dot) went out and no answer came: the provider may have taken the
 * message. It is tried again on the same provider with the same key, which that provider can
 * de-duplicate, and never on another, which cannot: the notification is pinned to this provider.
 */
public class OutcomeUnknownException extends RuntimeException {

    private final String provider;

    public OutcomeUnknownException(String provider, Throwable cause) {
        super(provider + " may have taken it (no answer after the message was sent): " + cause, cause);
        this.provider = provider;
    }

    public String provider() {
        return provider;
    }
}
