package dev.notifier.delivery;

import dev.notifier.delivery.email.SmtpReplies;
import dev.notifier.event.Mask;
import dev.notifier.event.Recipient;
import dev.notifier.event.TransferEvent;
import jakarta.mail.MessagingException;

/**
 * Classifies whatever a send threw. Anything we cannot recognise as a final "no" from the provider
 * (timeouts, refused connections, bugs) is treated as transient: retrying costs a delay, giving up
 * would lose the notification.
 */
public class DeliveryFailures {

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
            if (t instanceof ProviderRejectedException rejected) {
                return new DeliveryFailure(rejected.isPermanent(), reason(rejected.getMessage(), recipient));
            }
            if (t instanceof MessagingException smtp) {
                return new DeliveryFailure(SmtpReplies.isPermanent(smtp),
                        reason("SMTP: " + SmtpReplies.describe(smtp), recipient));
            }
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new DeliveryFailure(false, reason(root.getClass().getSimpleName() + ": " + root.getMessage(), recipient));
    }

    private static String reason(String text, Recipient recipient) {
        String flat = Mask.recipientIn(String.valueOf(text).replaceAll("\\s+", " ").strip(), recipient);
        return flat.length() > 1000 ? flat.substring(0, 1000) : flat;
    }
}
