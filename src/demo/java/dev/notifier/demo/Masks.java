package dev.notifier.demo;

/** Addresses and device tokens as a screen may show them: enough to tell them apart, no more. */
final class Masks {

    private Masks() {
    }

    /** {@code somchai@example.com} → {@code so*****@example.com}. */
    static String email(String address) {
        int at = address.indexOf('@');
        if (at < 0) {
            return token(address);
        }
        String local = address.substring(0, at);
        return keep(local, 2) + "*".repeat(Math.max(local.length() - 2, 1)) + address.substring(at);
    }

    /** {@code device-token-abc} → {@code dev…abc}. */
    static String token(String token) {
        return token.length() <= 6 ? "*".repeat(token.length()) : token.substring(0, 3) + "…" + token.substring(token.length() - 3);
    }

    private static String keep(String text, int chars) {
        return text.length() <= chars ? text.substring(0, Math.min(1, text.length())) : text.substring(0, chars);
    }
}
