package dev.notifier.delivery.email;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;

/**
 * A MimeMessage whose Message-ID survives {@code saveChanges()}. Jakarta Mail otherwise mints a
 * new one on every save (jakartaee/mail-api#432), and a retried email would look like a new email
 * to the receiving side's duplicate detection.
 */
final class StableIdMimeMessage extends MimeMessage {

    private final String messageId;

    StableIdMimeMessage(Session session, String messageId) {
        super(session);
        this.messageId = messageId;
    }

    @Override
    protected void updateMessageID() throws MessagingException {
        setHeader("Message-ID", messageId);
    }
}
