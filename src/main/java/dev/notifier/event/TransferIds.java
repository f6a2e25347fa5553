package dev.notifier.event;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a {@code transferId} may look like. It is printed in messages that carry the bank's name (the
 * email's body, the push, the LINE message), so a producer that could put a link there could make a
 * bank-branded notice send its reader to an attacker: a transferId matches the configured pattern
 * ({@code notifier.event.transfer-id-pattern}) and is never a URL, whatever that pattern allows.
 *
 * <p>Never a URL means: no {@code //} (every {@code scheme://} link, and a scheme-relative one), and no
 * URI scheme with its colon (RFC 3986: a letter, then letters, digits, {@code +}, {@code -} or
 * {@code .}, then {@code :}), whether it starts the value or follows a character no scheme holds
 * ({@code _}, {@code /}, {@code :}). So {@code tel:0812345678}, {@code javascript:x} and
 * {@code TRX-1:2} are refused, {@code 2026:000123} and {@code TRX/2026:1} are not: a colon may follow
 * only a part that starts with a digit. The scan is one pass; the pattern sees at most the column's
 * width ({@link ColumnLimits#TRANSFER_ID}), checked before.
 */
public final class TransferIds {

    public static final String PROPERTY = "notifier.event.transfer-id-pattern";
    /** Letters, digits and {@code -_.:/}, 1 to 64 of them. */
    public static final String DEFAULT_PATTERN = "[A-Za-z0-9._:/-]{1,64}";

    private final Pattern pattern;

    private TransferIds(Pattern pattern) {
        this.pattern = pattern;
    }

    public static TransferIds defaults() {
        return matching(DEFAULT_PATTERN);
    }

    /** @throws IllegalArgumentException naming the property when the pattern is not a regular expression */
    public static TransferIds matching(String regex) {
        try {
            return new TransferIds(Pattern.compile(regex));
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(PROPERTY + " is not a regular expression: " + e.getDescription(), e);
        }
    }

    /** @param transferId already a required, visible identifier no longer than its column */
    void check(String transferId) throws InvalidEventException {
        if (transferId.contains("//") || hasScheme(transferId)) {
            throw new InvalidEventException("transferId: looks like a URL (a scheme such as 'https:' or '//'),"
                    + " which a transfer id never is");
        }
        if (!pattern.matcher(transferId).matches()) {
            throw new InvalidEventException("transferId: does not match " + PROPERTY);
        }
    }

    static boolean hasScheme(String text) {
        // where the current run of characters a scheme may hold began, or -1 outside such a run
        int run = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ':' && run >= 0 && isAsciiLetter(text.charAt(run))) {
                return true;
            }
            if (isAsciiLetter(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
                run = run < 0 ? i : run;
            } else {
                run = -1;
            }
        }
        return false;
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }

    @Override
    public String toString() {
        return pattern.pattern();
    }
}
