package dev.notifier.bounce;

import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.internet.ContentType;
import jakarta.mail.internet.InternetHeaders;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An RFC 3464 delivery status notification read from the bounce mailbox: a {@code multipart/report;
 * report-type=delivery-status} with a {@code message/delivery-status} part (per-message fields, then a
 * block per recipient) and the returned message or its headers ({@code message/rfc822},
 * {@code text/rfc822-headers}), where the original {@code Message-ID} and {@code X-Notification-Key} are.
 * Postfix, Exim, Exchange and Gmail write this format; RFC 6533's {@code message/global-delivery-status}
 * is read the same way.
 *
 * <p>Everything read is bounded: the parts looked at, the bytes of each, the recipients, the length of
 * each field. A message that is not such a report answers {@link Optional#empty()}, never an exception.
 *
 * @param reportId        the DSN's own Message-ID (what the idempotent consumer keys on); null when it has none
 * @param originalId      the returned message's Message-ID; null when not returned
 * @param notificationKey the returned message's X-Notification-Key; null when not returned
 * @param recipients      the per-recipient blocks, in order
 */
public record DeliveryStatusReport(String reportId, String originalId, String notificationKey,
                                   List<RecipientStatus> recipients) {

    /** Bytes read of one part: a status block is a few hundred bytes, returned headers a few kilobytes. */
    static final int PART_LIMIT = 64 * 1024;
    /** Parts looked at in the report (a report has two or three). */
    static final int PARTS_LIMIT = 8;
    /** Recipient blocks read: Notifier sends to one address per message. */
    static final int RECIPIENTS_LIMIT = 16;
    /** The diagnostic, cut to one line of this many characters. */
    static final int TEXT_LIMIT = 300;

    /**
     * One recipient's block.
     *
     * @param action     failed, delayed, delivered, relayed or expanded (lower case)
     * @param status     the enhanced status code ({@code 5.1.1}); may be empty when the relay wrote none
     * @param recipient  the address of Final-Recipient (else Original-Recipient), without its {@code rfc822;} type
     * @param diagnostic Diagnostic-Code without its type, one clean bounded line; may be empty
     */
    public record RecipientStatus(String action, String status, String recipient, String diagnostic) {

        /** The relay gave up: the email was not delivered (BOUNCED), whatever the code says. */
        public boolean failed() {
            return "failed".equals(action);
        }

        /** Given up for good, about the address ({@code 5.x.x}): later emails to it are suppressed. */
        public boolean permanent() {
            return failed() && status.startsWith("5");
        }

        public boolean delayed() {
            return "delayed".equals(action);
        }
    }

    public static Optional<DeliveryStatusReport> read(MimeMessage message) {
        try {
            if (!isReport(message.getContentType())) {
                return Optional.empty();
            }
            Object content = message.getContent();
            if (!(content instanceof Multipart parts)) {
                return Optional.empty();
            }
            List<RecipientStatus> recipients = null;
            InternetHeaders returned = null;
            for (int i = 0; i < Math.min(parts.getCount(), PARTS_LIMIT); i++) {
                BodyPart part = parts.getBodyPart(i);
                String type = baseType(part.getContentType());
                if (recipients == null && (type.equals("message/delivery-status") || type.equals("message/global-delivery-status"))) {
                    recipients = recipients(bounded(part));
                } else if (returned == null && (type.equals("message/rfc822") || type.equals("text/rfc822-headers")
                        || type.equals("message/global") || type.equals("message/global-headers"))) {
                    returned = new InternetHeaders(new ByteArrayInputStream(bounded(part)));
                }
            }
            if (recipients == null || recipients.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new DeliveryStatusReport(field(message.getHeader("Message-ID")),
                    returned == null ? null : field(returned.getHeader("Message-ID")),
                    returned == null ? null : field(returned.getHeader("X-Notification-Key")), recipients));
        } catch (MessagingException | IOException | RuntimeException malformed) {
            return Optional.empty();
        }
    }

    static boolean isReport(String contentType) {
        try {
            ContentType type = new ContentType(contentType);
            return type.match("multipart/report") && "delivery-status".equalsIgnoreCase(type.getParameter("report-type"));
        } catch (jakarta.mail.internet.ParseException | NullPointerException e) {
            return false;
        }
    }

    private static String baseType(String contentType) {
        try {
            return new ContentType(contentType).getBaseType().toLowerCase(Locale.ROOT);
        } catch (jakarta.mail.internet.ParseException | NullPointerException e) {
            return "";
        }
    }

    /** The part's bytes as sent (no decoding of a nested message), at most {@link #PART_LIMIT}. */
    private static byte[] bounded(Part part) throws MessagingException, IOException {
        InputStream raw = part instanceof jakarta.mail.internet.MimeBodyPart mime ? mime.getRawInputStream() : part.getInputStream();
        try (InputStream in = raw) {
            return in.readNBytes(PART_LIMIT);
        }
    }

    /** The blocks after the per-message one, each a recipient with an Action. */
    private static List<RecipientStatus> recipients(byte[] status) throws MessagingException, IOException {
        InputStream in = new ByteArrayInputStream(status);
        List<RecipientStatus> recipients = new ArrayList<>();
        // the per-message block first (Reporting-MTA, Arrival-Date, ...), then one per recipient
        for (int block = 0; block <= RECIPIENTS_LIMIT && in.available() > 0; block++) {
            InternetHeaders fields = new InternetHeaders(in);
            String action = field(fields.getHeader("Action"));
            if (action == null) {
                continue;
            }
            String recipient = typed(fields.getHeader("Final-Recipient"));
            if (recipient.isEmpty()) {
                recipient = typed(fields.getHeader("Original-Recipient"));
            }
            String code = field(fields.getHeader("Status"));
            recipients.add(new RecipientStatus(action.toLowerCase(Locale.ROOT),
                    statusCode(code), recipient, typed(fields.getHeader("Diagnostic-Code"))));
        }
        return recipients;
    }

    /** An RFC 3463 code ({@code 5.1.1}, at most 9 characters); anything else is no code: empty. */
    static String statusCode(String field) {
        if (field == null) {
            return "";
        }
        String code = field.split("[\\s(]", 2)[0];
        return code.matches("[245]\\.\\d{1,3}\\.\\d{1,3}") ? code : "";
    }

    /** {@code rfc822; a@b} or {@code smtp; 550 5.1.1 ...} without its type, one clean line. */
    private static String typed(String[] values) {
        String value = field(values);
        if (value == null) {
            return "";
        }
        int semicolon = value.indexOf(';');
        return semicolon < 0 ? value : value.substring(semicolon + 1).strip();
    }

    /** The first value, unfolded, control characters gone, at most {@link #TEXT_LIMIT} characters; null when absent. */
    static String field(String[] values) {
        if (values == null || values.length == 0 || values[0] == null) {
            return null;
        }
        String clean = values[0].replaceAll("[\\p{Cntrl}\\p{Cf}]+", " ").strip();
        return clean.length() > TEXT_LIMIT ? clean.substring(0, TEXT_LIMIT) : clean;
    }
}
