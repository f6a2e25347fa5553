package dev.notifier.demo;

import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import java.io.IOException;

/** What a reader of a received email sees first: its plain-text part (Notifier sends text and HTML as alternatives). */
public final class MailText {

    private MailText() {
    }

    public static String plain(Part message) throws MessagingException, IOException {
        Object content = message.getContent();
        if (content instanceof Multipart parts) {
            for (int i = 0; i < parts.getCount(); i++) {
                BodyPart part = parts.getBodyPart(i);
                if (part.isMimeType("text/plain")) {
                    return String.valueOf(part.getContent()).strip();
                }
            }
            return parts.getCount() == 0 ? "" : plain(parts.getBodyPart(0));
        }
        return String.valueOf(content).strip();
    }
}
