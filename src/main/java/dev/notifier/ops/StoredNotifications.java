package dev.notifier.ops;

import dev.notifier.event.Mask;
import dev.notifier.event.EventParser;
import dev.notifier.event.Recipient;
import dev.notifier.event.TransferEvent;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/** Reading notification rows for display: timestamps as ISO-8601 text, addresses masked. */
final class StoredNotifications {

    private final EventParser parser;

    StoredNotifications(EventParser parser) {
        this.parser = parser;
    }

    TransferEvent event(ResultSet row) throws SQLException {
        return parser.fromStored(row.getString("payload"));
    }

    /** Where this notification went, masked: the email address or the push token. */
    static String maskedAddress(Recipient recipient, String channel) {
        return Mask.forChannel(channel, "EMAIL".equals(channel) ? recipient.email() : recipient.pushToken());
    }

    /** Free text from a provider or an exception, with the recipient's addresses masked. */
    static String maskedText(String text, Recipient recipient) {
        return Mask.tokenIn(text, recipient == null ? null : recipient.pushToken());
    }

    static String iso(ResultSet row, String column) throws SQLException {
        Timestamp timestamp = row.getTimestamp(column);
        return timestamp == null ? null : timestamp.toInstant().toString();
    }
}
