package dev.notifier.ops;

import dev.notifier.event.Channel;
import dev.notifier.event.EventParser;
import dev.notifier.event.InvalidEventException;
import dev.notifier.event.Mask;
import dev.notifier.event.Recipient;
import dev.notifier.event.TransferEvent;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/** Reading notification rows for display: timestamps as ISO-8601 text, names and addresses masked. */
final class StoredNotifications {

    private final EventParser parser;

    StoredNotifications(EventParser parser) {
        this.parser = parser;
    }

    /** The event the row is rendered from, or {@code null} when its payload no longer reads (the row says why). */
    TransferEvent event(ResultSet row) throws SQLException {
        try {
            return parser.fromStored(row.getString("payload"));
        } catch (InvalidEventException e) {
            return null;
        }
    }

    static Recipient recipientOf(TransferEvent event) {
        return event == null ? null : event.recipient();
    }

    /** Where this notification went, masked: the email address, the push token, the LINE user id. */
    String maskedAddress(Recipient recipient, String channel) {
        if (recipient == null) {
            return null;
        }
        Channel known = Channel.of(channel);
        return parser.channels().contains(known)
                ? Mask.forChannel(channel, recipient.address(parser.channels().addressField(known))) : null;
    }

    /** The customer's name as the page shows it: masked like an address. */
    static String maskedName(Recipient recipient) {
        return recipient == null ? null : Mask.name(recipient.name());
    }

    /** Free text from a provider or an exception, with the recipient's addresses masked. */
    static String maskedText(String text, Recipient recipient) {
        return Mask.recipientIn(text, recipient);
    }

    static String iso(ResultSet row, String column) throws SQLException {
        Timestamp timestamp = row.getTimestamp(column);
        return timestamp == null ? null : timestamp.toInstant().toString();
    }
}
