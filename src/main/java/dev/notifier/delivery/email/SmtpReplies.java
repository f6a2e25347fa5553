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

    /** The server's own words when it gave a reply ("550 5.1.1 user unknown"), else the failure. */
    public static String describe(MessagingException failure) {
        MessagingException reply = reply(failure);
        if (reply != null) {
            return "reply " + String.valueOf(reply.getMessage()).strip();
        }
        // no reply: the client failed on its own (TLS, a refused connection); the cause says why
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = String.valueOf(failure.getMessage()).strip();
        return root == failure || root.getMessage() == null ? message : message + ": " + root.getMessage().strip();
    }

    /**
     * A 421 or 451 that says it is about our rate ("too many", "rate", "throttled", "slow down"): the
     * relay asks every sender to wait, not only this message.
     */
    public static boolean asksToSlowDown(MessagingException failure) {
        MessagingException reply = reply(failure);
        int code = replyCode(failure);
        return (code == 421 || code == 451) && reply != null
                && String.valueOf(reply.getMessage()).toLowerCase(java.util.Locale.ROOT)
                .matches("(?s).*(too many|rate|throttl|slow down).*");
    }

    /**
     * Whether the server answered with a reply code: Angus reports a connection that closed instead of
     * answering as a "reply" of -1 ({@code [EOF]}), which is no answer at all.
     */
    public static boolean repliedWithCode(MessagingException failure) {
        return replyCode(failure) >= 200;
    }

    /** Whether the server answered at all (with a reply code), rather than the client failing on its own. */
    public static boolean hasReply(MessagingException failure) {
        return reply(failure) != null;
    }

    private static int replyCode(MessagingException failure) {
        MessagingException reply = reply(failure);
        if (reply instanceof SMTPAddressFailedException a) {
            return a.getReturnCode();
        }
        if (reply instanceof SMTPSendFailedException s) {
            return s.getReturnCode();
        }
        if (reply instanceof SMTPSenderFailedException s) {
            return s.getReturnCode();
        }
        return -1;
    }

    /** The innermost exception that carries an SMTP reply code, following Jakarta Mail's chain. */
    private static MessagingException reply(MessagingException failure) {
        MessagingException found = null;
        for (Exception e = failure; e != null; e = e instanceof MessagingException m ? m.getNextException() : null) {
            if (e instanceof SMTPAddressFailedException || e instanceof SMTPSendFailedException
                    || e instanceof SMTPSenderFailedException) {
                found = (MessagingException) e;
            }
        }
        return found;
    }
}
