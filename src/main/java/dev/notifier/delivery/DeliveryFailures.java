package dev.notifier.delivery;

import dev.notifier.delivery.email.SmtpReplies;
import jakarta.mail.MessagingException;

/**
 * Classifies whatever a send threw. Anything we cannot recognise as a final "no" from the provider
 * (timeouts, refused connections, bugs) is treated as transient: retrying costs a delay, giving up
 * would lose the notification.
 */
public class DeliveryFailures {

    public DeliveryFailure classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ProviderRejectedException rejected) {
                return new DeliveryFailure(rejected.isPermanent(), oneLine(rejected.getMessage()));
            }
            if (t instanceof MessagingException smtp) {
                return new DeliveryFailure(SmtpReplies.isPermanent(smtp), oneLine("SMTP: " + SmtpReplies.describe(smtp)));
            }
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new DeliveryFailure(false, oneLine(root.getClass().getSimpleName() + ": " + root.getMessage()));
    }

    private static String oneLine(String text) {
        String flat = String.valueOf(text).replaceAll("\\s+", " ").strip();
        return flat.length() > 1000 ? flat.substring(0, 1000) : flat;
    }
}
