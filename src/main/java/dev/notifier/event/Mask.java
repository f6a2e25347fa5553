package dev.notifier.event;

/**
 * How a recipient's address and push token appear in anything logged or published as a reason
 * (DLQ headers, {@code last_error}, log lines) or shown (the status page): masked.
 * {@code somchai@example.com} becomes {@code s***@example.com}, {@code device-token-abc} becomes
 * {@code devi…abc}: enough to tell two apart, not enough to use. Masking twice changes nothing.
 *
 * <p>Addresses in free text are found by one left-to-right scan, not a regular expression: a
 * pattern such as {@code [\w.]+@...} tried at every position costs time quadratic in a long run of
 * word characters, and the text masked here (a provider's reply, a reason quoting a field) comes
 * from outside.
 */
public final class Mask {

    private static final int SHORTEST_TOKEN_TO_SEARCH = 4;

    private Mask() {
    }

    /** Every address in free text masked; the rest of the text as it was. */
    public static String emailsIn(CharSequence text) {
        if (text == null) {
            return null;
        }
        StringBuilder masked = new StringBuilder(text.length());
        int copied = 0;
        int floor = 0;
        for (int at = 0; at < text.length(); at++) {
            if (text.charAt(at) != '@') {
                continue;
            }
            int start = at;
            while (start > floor && isLocalChar(text.charAt(start - 1))) {
                start--;
            }
            int end = domainEnd(text, at + 1);
            floor = at + 1;
            if (start == at || end == at + 1) {
                continue;
            }
            masked.append(text, copied, start).append(text.charAt(start)).append("***@").append(text, at + 1, end);
            copied = end;
            floor = end;
            at = end - 1;
        }
        return masked.append(text, copied, text.length()).toString();
    }

    /**
     * What was given as an address, for quoting in a reason: its addresses masked or, when it holds
     * none (a typo such as {@code somchai.example.com} is still somebody's address), all of it.
     */
    public static String address(String text) {
        if (text == null || text.isEmpty() || text.contains("***")) {
            return text;
        }
        String masked = emailsIn(text);
        return !masked.equals(text) ? masked : text.substring(0, Character.charCount(text.codePointAt(0))) + "***";
    }

    public static String pushToken(String token) {
        if (token == null || token.contains("…")) {
            return token;
        }
        return token.length() < 8 ? "…" : token.substring(0, 4) + "…" + token.substring(token.length() - 3);
    }

    /**
     * A person's name, for a page or a log: the first character of each word, then {@code ***}
     * ({@code สมชาย ใจดี} becomes {@code ส*** ใ***}). Masking twice changes nothing.
     */
    public static String name(String name) {
        if (name == null || name.isBlank()) {
            return name;
        }
        StringBuilder masked = new StringBuilder();
        for (String word : UntrustedText.oneLine(name, 200).split(" ")) {
            if (word.isEmpty()) {
                continue;
            }
            if (masked.length() > 0) {
                masked.append(' ');
            }
            masked.appendCodePoint(word.codePointAt(0)).append("***");
        }
        return masked.toString();
    }

    /** The address of a channel: an email address for EMAIL; for any other channel a token or user id, masked as a push token is. */
    public static String forChannel(String channel, String value) {
        return "EMAIL".equals(channel) ? address(value) : pushToken(value);
    }

    /**
     * A provider's answer may quote what it was sent: the recipient's own addresses go wherever they
     * appear (a token or a user id has no shape a pattern could find), then any other email address.
     */
    public static String recipientIn(String text, Recipient recipient) {
        String masked = text;
        if (masked == null || recipient == null) {
            return emailsIn(masked);
        }
        for (var address : recipient.addresses().entrySet()) {
            String value = address.getValue();
            if (address.getKey().equals(dev.notifier.event.ChannelCatalog.EMAIL_FIELD)) {
                masked = value.isEmpty() ? masked : masked.replace(value, address(value));
            } else if (value.length() >= SHORTEST_TOKEN_TO_SEARCH) {
                masked = masked.replace(value, pushToken(value));
            }
        }
        return emailsIn(masked);
    }

    /** Free text with the given push token masked wherever it appears, and every email address. */
    public static String tokenIn(String text, String token) {
        String masked = text;
        if (masked != null && token != null && token.length() >= SHORTEST_TOKEN_TO_SEARCH) {
            masked = masked.replace(token, pushToken(token));
        }
        return emailsIn(masked);
    }

    /** The end of the domain that starts at {@code from}: labels of word characters and '-', joined by single dots. */
    private static int domainEnd(CharSequence text, int from) {
        int end = from;
        while (end < text.length()) {
            char c = text.charAt(end);
            if (isDomainChar(c) || c == '.' && end > from && end + 1 < text.length() && isDomainChar(text.charAt(end + 1))
                    && text.charAt(end - 1) != '.') {
                end++;
            } else {
                break;
            }
        }
        return end;
    }

    private static boolean isLocalChar(char c) {
        return isWordChar(c) || c == '.' || c == '%' || c == '+' || c == '-';
    }

    private static boolean isDomainChar(char c) {
        return isWordChar(c) || c == '-';
    }

    /** As {@code \w} with UNICODE_CHARACTER_CLASS: letters, marks, digits, connector punctuation. */
    private static boolean isWordChar(char c) {
        if (c < 128) {
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
        }
        int type = Character.getType(c);
        return Character.isLetterOrDigit(c) || type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK || type == Character.CONNECTOR_PUNCTUATION
                || Character.isSurrogate(c);
    }
}
