package dev.notifier.bounce;

import dev.notifier.bounce.DeliveryStatusReport.RecipientStatus;
import dev.notifier.event.Channel;
import dev.notifier.event.EventParser;
import dev.notifier.event.InvalidEventException;
import dev.notifier.event.Mask;
import dev.notifier.event.Recipient;
import dev.notifier.event.UntrustedText;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What a delivery status notification changes, in read-bounces' transaction: the email it names
 * (its returned {@code Message-ID <eventId.email@notifier>} or {@code X-Notification-Key eventId:EMAIL})
 * becomes {@code BOUNCED} when the relay gave up, and every DSN is in the row's history. A DSN marks only
 * an email that was sent to the address it names: a forged one naming another event's key, for another
 * address, changes nothing. A permanent failure ({@code 5.x.x}) also suppresses the address.
 */
public final class BounceLedger {

    /** What a report did, for the route's choice and its counts; a report about several recipients says the first of these. */
    public enum Kind { BOUNCED, DELAYED, DELIVERED, UNMATCHED }

    private static final Pattern MESSAGE_ID = Pattern.compile("<([0-9a-fA-F-]{36})\\.email@notifier>");
    private static final Pattern KEY = Pattern.compile("([0-9a-fA-F-]{36}):EMAIL");
    private static final String ROW = "SELECT status, attempts, payload FROM notifications WHERE event_id = ? AND channel = ? FOR UPDATE";
    private static final String BOUNCE = "UPDATE notifications SET status = 'BOUNCED', last_error = ?, updated_at = ?"
            + " WHERE event_id = ? AND channel = ? AND status = 'SENT'";
    private static final String HISTORY = "INSERT INTO notification_attempts"
            + " (event_id, channel, attempt, outcome, error, finished_at, claim_lost) VALUES (?, ?, ?, ?, ?, ?, FALSE)";

    private final JdbcTemplate jdbc;
    private final EventParser parser;
    private final Suppressions suppressions;

    public BounceLedger(DataSource dataSource, EventParser parser, Suppressions suppressions) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.parser = parser;
        this.suppressions = suppressions;
    }

    /** For the route's log line: the event id the report names, or "none". */
    public String eventNamed(DeliveryStatusReport report) {
        UUID eventId = eventOf(report);
        return eventId == null ? "none" : eventId.toString();
    }

    /** The event a report names, from the returned Message-ID or X-Notification-Key; null when neither is Notifier's. */
    static UUID eventOf(DeliveryStatusReport report) {
        UUID byMessageId = uuidIn(MESSAGE_ID, report.originalId());
        return byMessageId != null ? byMessageId : uuidIn(KEY, report.notificationKey());
    }

    private static UUID uuidIn(Pattern pattern, String text) {
        if (text == null) {
            return null;
        }
        Matcher matcher = pattern.matcher(text.strip());
        try {
            return matcher.matches() ? UUID.fromString(matcher.group(1)) : null;
        } catch (IllegalArgumentException notAUuid) {
            return null;
        }
    }

    /** Records the report (call inside the transaction that also writes its key); what it did. */
    public Kind record(DeliveryStatusReport report) {
        UUID eventId = eventOf(report);
        if (eventId == null) {
            return Kind.UNMATCHED;
        }
        String channel = Channel.EMAIL.name();
        List<Row> rows = jdbc.query(ROW, (rs, i) -> new Row(rs.getString("status"), rs.getInt("attempts"),
                rs.getString("payload")), eventId, channel);
        Optional<Recipient> sentTo = rows.isEmpty() ? Optional.empty() : recipientOf(rows.get(0).payload());
        Optional<String> address = sentTo.map(Recipient::email);
        if (address.isEmpty()) {
            return Kind.UNMATCHED;
        }
        Kind kind = Kind.UNMATCHED;
        Timestamp now = Timestamp.from(Instant.now());
        for (RecipientStatus recipient : report.recipients()) {
            if (!recipient.recipient().toLowerCase(Locale.ROOT).equals(address.get().toLowerCase(Locale.ROOT))) {
                continue;
            }
            // the relay's words quote the address: masked, as in every stored error
            String text = UntrustedText.oneLine(Mask.recipientIn(said(recipient), sentTo.get()), 500);
            if (recipient.failed()) {
                if ("SENT".equals(rows.get(0).status())) {
                    jdbc.update(BOUNCE, "bounced: " + text, now, eventId, channel);
                }
                if (recipient.permanent()) {
                    suppressions.suppress(address.get(), recipient.status(), recipient.diagnostic(), eventId);
                }
            }
            Kind outcome = recipient.failed() ? Kind.BOUNCED : recipient.delayed() ? Kind.DELAYED : Kind.DELIVERED;
            jdbc.update(HISTORY, eventId, channel, rows.get(0).attempts(), outcome.name(), text, now);
            kind = outcome.ordinal() < kind.ordinal() ? outcome : kind;
        }
        return kind;
    }

    private record Row(String status, int attempts, String payload) {
    }

    private Optional<Recipient> recipientOf(String payload) {
        try {
            Recipient recipient = parser.fromStored(payload).recipient();
            return recipient.email() == null ? Optional.empty() : Optional.of(recipient);
        } catch (InvalidEventException | RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    /** "5.1.1 smtp; 550 5.1.1 ... does not exist" as one line: the code, the action, the relay's words. */
    private static String said(RecipientStatus recipient) {
        return (recipient.status().isEmpty() ? "" : recipient.status() + " ") + recipient.action()
                + (recipient.diagnostic().isEmpty() ? "" : ": " + recipient.diagnostic());
    }
}
