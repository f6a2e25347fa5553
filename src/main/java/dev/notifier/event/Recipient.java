package dev.notifier.event;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who the notification is for. The addresses, by the recipient's field name ({@code email},
 * {@code pushToken}, {@code lineUserId}, whatever a channel names), are already validated when an
 * instance exists; {@code name} and {@code locale} are free text and are treated as such.
 */
public record Recipient(String userId, String name, String locale, Map<String, String> addresses) {

    public Recipient {
        Map<String, String> present = new LinkedHashMap<>();
        if (addresses != null) {
            addresses.forEach((field, value) -> {
                if (value != null) {
                    present.put(field, value);
                }
            });
        }
        addresses = Collections.unmodifiableMap(present);
    }

    /** The contract's three address fields (each may be {@code null}). */
    public static Recipient of(String userId, String name, String locale, String email, String pushToken, String lineUserId) {
        Map<String, String> addresses = new LinkedHashMap<>();
        addresses.put(ChannelCatalog.EMAIL_FIELD, email);
        addresses.put("pushToken", pushToken);
        addresses.put("lineUserId", lineUserId);
        return new Recipient(userId, name, locale, addresses);
    }

    public String address(String field) {
        return addresses.get(field);
    }

    public String email() {
        return addresses.get(ChannelCatalog.EMAIL_FIELD);
    }

    public String pushToken() {
        return addresses.get("pushToken");
    }

    /** For logs and exceptions: the name and every address masked ({@link Mask}). */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("Recipient[userId=").append(userId).append(", name=").append(Mask.name(name))
                .append(", locale=").append(locale);
        addresses.forEach((field, value) -> text.append(", ").append(field).append('=')
                .append(ChannelCatalog.EMAIL_FIELD.equals(field) ? Mask.address(value) : Mask.pushToken(value)));
        return text.append(']').toString();
    }

    public boolean isThai() {
        return locale != null && locale.toLowerCase(java.util.Locale.ROOT).startsWith("th");
    }
}
