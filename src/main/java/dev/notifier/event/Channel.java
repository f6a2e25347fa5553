package dev.notifier.event;

import java.util.regex.Pattern;

/**
 * A way of reaching a customer, by name. One event becomes at most one notification per channel.
 * Which channels exist is configuration ({@link ChannelCatalog}); the three built in are named here
 * because code that only they have (the SMTP sender) needs to say which it is.
 */
public record Channel(String name) {

    // before the constants below: they are checked against it as they are built
    /** Upper-case letters, digits and '_', starting with a letter, at most 16: what the table's channel column takes. */
    private static final Pattern NAME = Pattern.compile("[A-Z][A-Z0-9_]{0,15}");

    public static final Channel EMAIL = new Channel("EMAIL");
    public static final Channel PUSH = new Channel("PUSH");
    public static final Channel LINE = new Channel("LINE");

    public Channel {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a channel name: " + UntrustedText.quote(String.valueOf(name))
                    + " (upper-case letters, digits and '_', at most 16)");
        }
    }

    /** The channel with this name, in any case ({@code line} is LINE). */
    public static Channel of(String name) {
        return new Channel(name == null ? null : name.strip().toUpperCase(java.util.Locale.ROOT));
    }

    /** The name in lower case, as routes, templates and properties spell it: {@code send-line}, {@code templates/line/}. */
    public String id() {
        return name.toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public String toString() {
        return name;
    }
}
