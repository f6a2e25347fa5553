package dev.notifier.event;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a recipient's address and push token appear in anything logged or published as a reason
 * (DLQ headers, {@code last_error}, log lines) or shown (the status page): masked.
 * {@code somchai@example.com} becomes {@code s***@example.com}, {@code device-token-abc} becomes
 * {@code devi…abc}: enough to tell two apart, not enough to use. Masking twice changes nothing.
 */
public final class Mask {

    private static final Pattern EMAIL = Pattern.compile("([\\w.%+\\-]+)@([\\w\\-]+(?:\\.[\\w\\-]+)*)",
            Pattern.UNICODE_CHARACTER_CLASS);
    private static final int SHORTEST_TOKEN_TO_SEARCH = 4;

    private Mask() {
    }

    /** Every address in free text masked; the rest of the text as it was. */
    public static String emailsIn(String text) {
        if (text == null) {
            return null;
        }
        Matcher matcher = EMAIL.matcher(text);
        StringBuilder masked = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(masked, Matcher.quoteReplacement(
                    matcher.group(1).substring(0, 1) + "***@" + matcher.group(2)));
        }
        return matcher.appendTail(masked).toString();
    }

    /**
     * What was given as an address, for quoting in a reason: its addresses masked or, when it holds
     * none (a typo such as {@code somchai.example.com} is still somebody's address), all of it.
     */
    public static String address(String text) {
        if (text == null || text.isEmpty() || text.contains("***")) {
            return text;
        }
        return EMAIL.matcher(text).find() ? emailsIn(text) : text.substring(0, 1) + "***";
    }

    public static String pushToken(String token) {
        if (token == null || token.contains("…")) {
            return token;
        }
        return token.length() < 8 ? "…" : token.substring(0, 4) + "…" + token.substring(token.length() - 3);
    }

    /** The address of a channel: an email address for EMAIL, a push token for PUSH. */
    public static String forChannel(String channel, String value) {
        return "EMAIL".equals(channel) ? address(value) : pushToken(value);
    }

    /**
     * A provider's answer may quote what it was sent: the recipient's own address and token go
     * wherever they appear (a token has no shape a pattern could find), then any other address.
     */
    public static String recipientIn(String text, Recipient recipient) {
        String masked = text;
        if (masked != null && recipient != null && recipient.email() != null && !recipient.email().isEmpty()) {
            masked = masked.replace(recipient.email(), address(recipient.email()));
        }
        return tokenIn(masked, recipient == null ? null : recipient.pushToken());
    }

    /** Free text with the given push token masked wherever it appears, and every email address. */
    public static String tokenIn(String text, String token) {
        String masked = text;
        if (masked != null && token != null && token.length() >= SHORTEST_TOKEN_TO_SEARCH) {
            masked = masked.replace(token, pushToken(token));
        }
        return emailsIn(masked);
    }
}
