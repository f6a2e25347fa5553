package dev.notifier.event;

/**
 * Text that came from outside (an event's field, a provider's reply, an exception's message) on its
 * way into something of ours: a DLQ header, a log line, a database column, a page. Every method is
 * one pass over at most a bounded prefix of its input, so its cost is linear whatever it is given,
 * and no regular expression ever sees text longer than that prefix.
 */
public final class UntrustedText {

    private static final char ELLIPSIS = '…';

    private UntrustedText() {
    }

    /**
     * True when an identifier (an id, an address, a token) holds only visible characters: no
     * control, format (zero-width, bidi overrides, BOM), separator or private-use character, no
     * unassigned code point and no lone surrogate. Such characters make two different identifiers
     * look the same, or one look like another.
     */
    public static boolean isVisibleIdentifier(CharSequence text) {
        for (int i = 0; i < text.length(); ) {
            int codePoint = Character.codePointAt(text, i);
            if (!isVisible(codePoint)) {
                return false;
            }
            i += Character.charCount(codePoint);
        }
        return true;
    }

    /**
     * The text without its format characters (Unicode category Cf: bidi embeddings, overrides and isolates,
     * LRM/RLM, zero-width space and joiners, BOM, soft hyphen, tag characters); the same instance when it
     * holds none.
     */
    public static String withoutFormatCharacters(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            int next = i + Character.charCount(codePoint);
            if (Character.getType(codePoint) == Character.FORMAT) {
                if (out == null) {
                    out = new StringBuilder(text.length()).append(text, 0, i);
                }
            } else if (out != null) {
                out.append(text, i, next);
            }
            i = next;
        }
        return out == null ? text : out.toString();
    }

    /** True when the text holds a control character (C0, DEL, C1). */
    public static boolean hasControl(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * One line of at most {@code maxChars} characters that is safe to store, log and show: control,
     * format and separator characters become a space, runs of white space one space, lone surrogates
     * (which PostgreSQL cannot store) {@code U+FFFD}; a longer text is cut at a character boundary and
     * ends in "…". Only the first {@code 4 × maxChars} characters are read.
     */
    public static String oneLine(CharSequence text, int maxChars) {
        if (text == null) {
            return null;
        }
        int limit = Math.max(1, maxChars);
        int readUpTo = (int) Math.min(text.length(), 4L * limit);
        StringBuilder out = new StringBuilder(Math.min(readUpTo, limit + 1));
        boolean pendingSpace = false;
        boolean cut = readUpTo < text.length();
        for (int i = 0; i < readUpTo; ) {
            int codePoint = Character.codePointAt(text, i);
            i += Character.charCount(codePoint);
            if (Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint) || !isPrintable(codePoint)) {
                pendingSpace = out.length() > 0;
                continue;
            }
            int needed = (pendingSpace ? 1 : 0) + Character.charCount(codePoint);
            if (out.length() + needed > limit) {
                cut = true;
                break;
            }
            if (pendingSpace) {
                out.append(' ');
                pendingSpace = false;
            }
            if (Character.getType(codePoint) == Character.SURROGATE) {
                out.append('\uFFFD');
            } else {
                out.appendCodePoint(codePoint);
            }
        }
        if (cut) {
            while (out.length() >= limit) {
                out.setLength(out.length() - (Character.isLowSurrogate(out.charAt(out.length() - 1)) ? 2 : 1));
            }
            out.append(ELLIPSIS);
        }
        return out.toString();
    }

    /** The first {@code maxChars} characters, cut at a character boundary: what a costlier pass may then read. */
    public static String prefix(String text, int maxChars) {
        if (text == null || text.length() <= maxChars) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
        return text.substring(0, end);
    }

    /** A value quoted inside a reason: one line, at most 64 characters. */
    public static String quote(CharSequence text) {
        return "'" + oneLine(text, 64) + "'";
    }

    private static boolean isVisible(int codePoint) {
        if (Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint)) {
            return false;
        }
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
                 Character.UNASSIGNED, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SPACE_SEPARATOR -> false;
            default -> true;
        };
    }

    /** Printable in free text: anything but control and format characters (white space is handled apart). */
    private static boolean isPrintable(int codePoint) {
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.UNASSIGNED, Character.PRIVATE_USE -> false;
            default -> true;
        };
    }
}
