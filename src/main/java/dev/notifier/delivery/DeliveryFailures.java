package dev.notifier.delivery;

import dev.notifier.delivery.email.SmtpReplies;
import dev.notifier.event.InvalidEventException;
import dev.notifier.event.Mask;
import dev.notifier.event.Recipient;
import dev.notifier.event.TransferEvent;
import dev.notifier.event.UntrustedText;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.internet.AddressException;

/**
 * Classifies whatever a send threw. A final "no" from the provider, and a failure that no retry can
 * change (the notification cannot be read, rendered or addressed), are permanent. Anything else
 * (timeouts, refused connections, bugs) is transient: retrying costs a delay, giving up would lose
 * the notification; {@link DeliverySchedule#settle} bounds how long that goes on.
 */
public class DeliveryFailures {

    /** The longest reason kept: {@code last_error} and {@code notification_attempts.error} hold it. */
    public static final int MAX_REASON_CHARS = 1000;

    public DeliveryFailure classify(Throwable failure) {
        return classify(failure, null);
    }

    /**
     * @param event what was being sent, or {@code null}: a provider's answer may quote the recipient's
     *              address or push token ("550 <somchai@example.com> unknown", a gateway echoing the
     *              request), and the reason is logged, so those are masked
     */
    public DeliveryFailure classify(Throwable failure, TransferEvent event) {
        Recipient recipient = event == null ? null : event.recipient();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ProviderNotTakenException || t instanceof OutcomeUnknownException) {
                // the send route's failover had its say: either way the same key is tried again later
                return new DeliveryFailure(false, reason(t.getMessage(), recipient));
            }
            if (t instanceof ProviderRejectedException rejected) {
                return new DeliveryFailure(rejected.isPermanent(), reason(rejected.getMessage(), recipient));
            }
            if (t instanceof UndeliverableException || t instanceof InvalidEventException) {
                return new DeliveryFailure(true, reason(t.getMessage(), recipient));
            }
            if (t instanceof AddressException refused) {
                return new DeliveryFailure(true, reason("address refused before sending: " + refused.getMessage(), recipient));
            }
            if (t instanceof MessagingException smtp) {
                return new DeliveryFailure(SmtpReplies.isPermanent(smtp) || refusedLocally(smtp),
                        reason("SMTP: " + SmtpReplies.describe(smtp), recipient));
            }
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new DeliveryFailure(false, reason(root.getClass().getSimpleName() + ": " + root.getMessage(), recipient));
    }

    /** The mail library refused a recipient itself, without a server's reply: it will refuse it every time. */
    private static boolean refusedLocally(MessagingException failure) {
        return failure instanceof SendFailedException refused && !SmtpReplies.hasReply(failure)
                && refused.getInvalidAddresses() != null && refused.getInvalidAddresses().length > 0;
    }

    /**
     * One line of at most {@link #MAX_REASON_CHARS}, safe to store and log: only a bounded prefix of
     * the text is read (a provider may answer with megabytes), the recipient's address and token are
     * masked, control and format characters go.
     */
    static String reason(String text, Recipient recipient) {
        String prefix = UntrustedText.prefix(String.valueOf(text), 4 * MAX_REASON_CHARS);
        return UntrustedText.oneLine(Mask.recipientIn(prefix, recipient), MAX_REASON_CHARS);
    }
}
