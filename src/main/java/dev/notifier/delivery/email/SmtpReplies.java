package dev.notifier.delivery.email;

import jakarta.mail.MessagingException;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.eclipse.angus.mail.smtp.SMTPSenderFailedException;

/** Reads SMTP's verdict: a 5xx reply is a rejection for good, anything else may pass later. */
public final class SmtpReplies {

    private SmtpReplies() {
    }

    public static boolean isPermanent(MessagingException failure) {
        int code = replyCode(failure);
        return code >= 500 && code < 600;
    }

    public static String describe(MessagingException failure) {
        int code = replyCode(failure);
        String message = String.valueOf(failure.getMessage()).strip();
        return code > 0 ? "reply " + code + " " + message : message;
    }

    private static int replyCode(MessagingException failure) {
        for (Exception e = failure; e != null; e = e instanceof MessagingException m ? m.getNextException() : null) {
            if (e instanceof SMTPAddressFailedException a) {
                return a.getReturnCode();
            }
            if (e instanceof SMTPSendFailedException s) {
                return s.getReturnCode();
            }
            if (e instanceof SMTPSenderFailedException s) {
                return s.getReturnCode();
            }
        }
        return -1;
    }
}
