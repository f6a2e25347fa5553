package dev.notifier.delivery;

import dev.notifier.event.TransferEvent;
import java.time.Instant;

/**
 * A notification this instance holds the claim on ({@code SENDING}, its {@code claim_token}), on its
 * way to its channel's senders: what to send, and what the outcome must be recorded against.
 *
 * @param event        the event it is rendered from; {@code null} when the stored payload no longer reads
 * @param unreadable   why the payload does not read, when it does not
 * @param attempt      this attempt's number (the row's {@code attempts} after the claim)
 * @param claimedUntil when another sender may take the claim over: renewed first if it is near
 */
public record ClaimedNotification(NotificationKey key, TransferEvent event, String unreadable, int attempt,
                                  Instant createdAt, String claimToken, Instant claimedUntil) {

    /** The event to render; a payload that no longer reads can never be sent. */
    public TransferEvent readEvent() {
        if (event == null) {
            throw new UndeliverableException(unreadable);
        }
        return event;
    }

    public ClaimedNotification renewedUntil(Instant until) {
        return new ClaimedNotification(key, event, unreadable, attempt, createdAt, claimToken, until);
    }
}
