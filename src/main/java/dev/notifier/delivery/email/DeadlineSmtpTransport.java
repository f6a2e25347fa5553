package dev.notifier.delivery.email;

import dev.notifier.delivery.SendDeadline;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.URLName;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.angus.mail.smtp.SMTPTransport;

/**
 * Angus Mail's SMTP client, which stops before the final dot of a message when the send's deadline
 * is too near to wait for the server's answer to it. The dot is the point of no return: before it the
 * server has taken nothing (it discards a message whose dot never came); once it is sent, the server
 * may take the message, and if its answer is cut off the outcome is unknown, so the next attempt,
 * under a new claim, might deliver it a second time. Stopping short leaves a clean "not sent": the
 * connection is closed without the dot and the message is tried again later.
 */
final class DeadlineSmtpTransport extends SMTPTransport {

    private final Duration replyTimeout;
    /** Whether the current message's final dot was written: from then on, the server may have taken it. */
    private volatile boolean dotSent;

    /** @param protocol {@code smtp} or {@code smtps} (TLS from the first byte) */
    DeadlineSmtpTransport(Session session, String protocol, Duration replyTimeout) {
        super(session, new URLName(protocol, null, -1, null, null, null), protocol, "smtps".equals(protocol));
        this.replyTimeout = replyTimeout;
    }

    @Override
    public synchronized void sendMessage(jakarta.mail.Message message, jakarta.mail.Address[] addresses)
            throws MessagingException {
        dotSent = false;
        super.sendMessage(message, addresses);
    }

    /** After a failed send: whether it failed after the final dot was written (the outcome is unknown). */
    boolean dotSent() {
        return dotSent;
    }

    @Override
    protected void finishData() throws IOException, MessagingException {
        Optional<SendDeadline> deadline = SendDeadline.current();
        if (deadline.isPresent() && deadline.get().remaining().compareTo(replyTimeout) < 0) {
            throw new SendDeadline.TooLateToSend("stopped before the final dot: " + Math.max(0,
                    deadline.get().remaining().toMillis()) + " ms are left of the claim, and the server's answer may take "
                    + replyTimeout.toMillis() + " ms (notifier.smtp.timeout-millis); the message was not finished");
        }
        dotSent = true;
        super.finishData();
    }
}
