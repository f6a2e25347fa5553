package dev.notifier.ops;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the status page may show of a customer's addresses: enough to tell two apart, not enough to
 * use. {@code somchai@example.com} becomes {@code s***@example.com}, {@code device-token-abc}
 * becomes {@code devi…abc}. Masking an already masked value changes nothing.
 */
public final class Masking {

    private static final Pattern EMAIL = Pattern.compile("[^\\s<>\"'(),;:@]+@([A-Za-z0-9.-]+\\.[A-Za-z]{2,})");

    private Masking() {
    }

    /** @param channel EMAIL (an email address) or PUSH (a push token) */
    public static String address(String channel, String value) {
        return "EMAIL".equals(channel) ? email(value) : pushToken(value);
    }

    public static String email(String address) {
        if (address == null) {
            return null;
        }
        int at = address.lastIndexOf('@');
        if (at <= 0) {
            return "***";
        }
        return address.charAt(0) + "***" + address.substring(at);
    }

    public static String pushToken(String token) {
        if (token == null) {
            return null;
        }
        return token.length() < 8 ? "…" : token.substring(0, 4) + "…" + token.substring(token.length() - 3);
    }

    /**
     * Free text (an error from a provider, a message body) with every email address in it masked,
     * and the given push token too, wherever a provider echoed it.
     */
    public static String text(String text, String pushToken) {
        if (text == null) {
            return null;
        }
        String masked = text;
        if (pushToken != null && pushToken.length() >= 4) {
            masked = masked.replace(pushToken, pushToken(pushToken));
        }
        Matcher matcher = EMAIL.matcher(masked);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(out, Matcher.quoteReplacement(email(matcher.group())));
        }
        matcher.appendTail(out);
        return out.toString();
    }
}
