package dev.notifier.event;

/**
 * Who the notification is for. {@code email} and {@code pushToken} are already validated when an
 * instance exists; {@code name} and {@code locale} are free text and are treated as such.
 */
public record Recipient(String userId, String name, String locale, String email, String pushToken) {

    public boolean isThai() {
        return locale != null && locale.toLowerCase(java.util.Locale.ROOT).startsWith("th");
    }
}
