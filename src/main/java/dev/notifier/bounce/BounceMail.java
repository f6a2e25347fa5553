package dev.notifier.bounce;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.camel.Exchange;

/**
 * read-bounces' first step: what one mail of the bounce mailbox is. A delivery status notification goes
 * to property {@value #REPORT} with its key in {@value #KEY} (its own Message-ID; without one, a digest
 * of what it reports); anything else (an auto-reply, spam, a bounce in no standard format, a mail too
 * large to be one) gets a reason in {@value #ASIDE} and is left in the mailbox, read, never an error.
 *
 * <p>Nothing of the mail reaches a header: camel-mail hands over the raw message (mapMailMessage=false),
 * which is read lazily, size first, so a huge mail costs a look at its size and no more.
 */
public final class BounceMail {

    public static final String REPORT = "deliveryStatus";
    public static final String KEY = "bounceKey";
    public static final String ASIDE = "bounceAside";
    /** A DSN is a few kilobytes (the returned message's headers, or the message itself): far below this. */
    static final int SIZE_LIMIT = 2 * 1024 * 1024;
    private static final String NO_REPORT = "no delivery status notification (RFC 3464)";

    public void read(Exchange exchange) {
        Message mail = exchange.getMessage().getBody(Message.class);
        Optional<String> aside = aside(mail);
        if (aside.isPresent()) {
            exchange.setProperty(ASIDE, aside.get());
            return;
        }
        Optional<DeliveryStatusReport> report = DeliveryStatusReport.read(local((MimeMessage) mail));
        if (report.isEmpty()) {
            exchange.setProperty(ASIDE, NO_REPORT);
            return;
        }
        exchange.setProperty(REPORT, report.get());
        exchange.setProperty(KEY, keyOf(report.get()));
    }

    private static Optional<String> aside(Message mail) {
        if (!(mail instanceof MimeMessage)) {
            return Optional.of("not a MIME message");
        }
        try {
            int size = mail.getSize();
            if (size > SIZE_LIMIT) {
                return Optional.of("too large for a delivery status notification (" + size + " bytes)");
            }
            return DeliveryStatusReport.isReport(mail.getContentType()) ? Optional.empty()
                    : Optional.of(NO_REPORT);
        } catch (MessagingException | RuntimeException unreadable) {
            return Optional.of("unreadable: " + unreadable.getClass().getSimpleName());
        }
    }

    /**
     * The whole mail fetched once and parsed here (its size was checked): each IMAP server describes a
     * report's parts its own way (GreenMail, for one, does not know message/delivery-status), and part by
     * part fetches would depend on that description.
     */
    private static MimeMessage local(MimeMessage mail) {
        try {
            return new MimeMessage(mail);
        } catch (MessagingException unreadable) {
            return mail;
        }
    }

    /** The DSN's Message-ID; without one, a digest of the returned id and the recipients' statuses. */
    static String keyOf(DeliveryStatusReport report) {
        if (report.reportId() != null && !report.reportId().isBlank()) {
            return report.reportId().length() > 900 ? digest(report.reportId()) : report.reportId();
        }
        return digest(report.originalId() + "|" + report.notificationKey() + "|" + report.recipients());
    }

    private static String digest(String text) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
