package dev.notifier.event;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A validated "transfer completed" event.
 *
 * @param channels the channels the producer asked for, or {@code null} when it left the choice to
 *                 us (then they are derived from the recipient's addresses minus opt-outs)
 */
public record TransferEvent(
        UUID eventId,
        String type,
        Instant occurredAt,
        String transferId,
        BigDecimal amount,
        String currency,
        Recipient recipient,
        List<Channel> channels) {

    public String getEventIdText() {
        return eventId.toString();
    }

    /** For logs and exceptions: the ids as they are, the amount and the recipient masked. */
    @Override
    public String toString() {
        return "TransferEvent[eventId=" + eventId + ", type=" + type + ", occurredAt=" + occurredAt + ", transferId="
                + transferId + ", amount=*** " + currency + ", recipient=" + recipient + ", channels=" + channels + "]";
    }
}
