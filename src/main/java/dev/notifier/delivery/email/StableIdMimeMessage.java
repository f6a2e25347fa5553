package dev.notifier.delivery.email;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;

/**
 * A MimeMessage whose Message-ID survives {@code saveChanges()}. Jakarta Mail otherwise mints a
 * new one on every save (jakartaee/mail-api#432), and a retried email would look like a new email
 * to the receiving side's duplicate detection.
 *
 * <p>It also carries its envelope recipient as composed: {@link SmtpSender} sends to that, and never
 * to what Jakarta Mail would parse back out of the To header (a second parser with opinions of its
 * own: it refuses some internationalised domains that SMTPUTF8 allows, and could read others
 * differently).
 */
final class StableIdMimeMessage extends MimeMessage {

    private final String messageId;
    private final InternetAddress envelopeRecipient;
    private final String subject;

    StableIdMimeMessage(Session session, String messageId, InternetAddress envelopeRecipient, String subject) {
        super(session);
        this.messageId = messageId;
        this.envelopeRecipient = envelopeRecipient;
        this.subject = subject;
    }

    /** As set: the SMTP transport asks for it on every send, and would decode the header back. */
    @Override
    public String getSubject() {
        return subject;
    }

    InternetAddress envelopeRecipient() {
        return envelopeRecipient;
    }

    @Override
    protected void updateMessageID() throws MessagingException {
        setHeader("Message-ID", messageId);
    }
}
