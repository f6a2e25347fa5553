package dev.notifier.delivery;

/**
 * This notification can never be sent as it is, and no retry can change that: its stored event no
 * longer reads, it cannot be rendered or composed, or the address is refused before any provider is
 * asked (a non-ASCII address for a server without SMTPUTF8). Its row goes to FAILED at once.
 */
public class UndeliverableException extends RuntimeException {

    public UndeliverableException(String reason, Throwable cause) {
        super(reason, cause);
    }

    public UndeliverableException(String reason) {
        super(reason);
    }
}
