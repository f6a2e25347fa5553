package dev.notifier.event;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;

/**
 * The one rule for an email address we accept from an event: one bare mailbox
 * ({@code local@domain}, RFC 5321's dot-atom local part and a host name), written so that the
 * envelope recipient can be exactly these characters. Nothing in it can add a recipient or a header
 * line: no display name, list, group, comment, quoted string, address literal or source route, no
 * white space, control or invisible character.
 *
 * <p>Non-ASCII addresses (RFC 6531: a Thai local part, an IDN domain written in Unicode) exist only
 * with SMTPUTF8. When {@code notifier.smtp.utf8} is off they are refused here, and so dead-lettered
 * with that reason: converting the domain to punycode or the local part to anything would deliver
 * to an address the event did not name. When it is on they must be in Unicode normalisation form C
 * (one spelling for one address) and are sent only over a connection whose server offers SMTPUTF8.
 *
 * <p>One pass over the text, whatever its length; reasons quote the address masked and cut.
 */
public final class EmailAddresses {

    /** RFC 5321 4.5.3.1: a path is at most 256 octets with its angle brackets. */
    public static final int MAX_OCTETS = 254;
    private static final int MAX_LOCAL_OCTETS = 64;
    private static final int MAX_LABEL_OCTETS = 63;
    private static final String NOT_BARE = ",;<>\"()[]\\:";
    private static final String ATEXT_SYMBOLS = "!#$%&'*+-/=?^_`{|}~";

    private EmailAddresses() {
    }

    /**
     * @param text      the address as the event wrote it
     * @param allowUtf8 whether non-ASCII addresses may be accepted (SMTPUTF8 is on)
     * @return the address, unchanged
     */
    public static String requireDeliverable(String text, boolean allowUtf8) throws InvalidEventException {
        if (text.isEmpty()) {
            throw new InvalidEventException("recipient.email: empty");
        }
        if (UntrustedText.hasControl(text)) {
            throw new InvalidEventException("recipient.email: contains CR, LF or other control characters");
        }
        if (text.getBytes(StandardCharsets.UTF_8).length > MAX_OCTETS) {
            throw invalid(text, "is longer than " + MAX_OCTETS + " octets");
        }
        boolean ascii = true;
        int at = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (NOT_BARE.indexOf(c) >= 0) {
                throw invalid(text, "is not a single bare address");
            }
            if (c == '@') {
                if (at >= 0) {
                    throw invalid(text, "holds more than one '@'");
                }
                at = i;
            }
            ascii &= c < 128;
        }
        if (!UntrustedText.isVisibleIdentifier(text)) {
            throw invalid(text, "contains white space or invisible characters");
        }
        if (at <= 0 || at == text.length() - 1) {
            throw invalid(text, "is not an address (local@domain)");
        }
        if (!ascii && !allowUtf8) {
            throw invalid(text, "has non-ASCII characters: it can be delivered exactly as written only over SMTPUTF8,"
                    + " which is off (notifier.smtp.utf8)");
        }
        if (!ascii && !Normalizer.isNormalized(text, Normalizer.Form.NFC)) {
            throw invalid(text, "is not in Unicode normalisation form C");
        }
        requireLocalPart(text, text.substring(0, at));
        requireDomain(text, text.substring(at + 1));
        return text;
    }

    private static void requireLocalPart(String address, String local) throws InvalidEventException {
        if (local.getBytes(StandardCharsets.UTF_8).length > MAX_LOCAL_OCTETS) {
            throw invalid(address, "has a local part longer than " + MAX_LOCAL_OCTETS + " octets");
        }
        if (local.startsWith(".") || local.endsWith(".") || local.contains("..")) {
            throw invalid(address, "has a dot at the start or end of its local part, or two in a row");
        }
        for (int i = 0; i < local.length(); ) {
            int c = local.codePointAt(i);
            i += Character.charCount(c);
            if (!(c == '.' || isAsciiLetterOrDigit(c) || c < 128 && ATEXT_SYMBOLS.indexOf(c) >= 0
                    || c >= 128 && isUnicodeWordChar(c))) {
                throw invalid(address, "has a character not allowed in a local part");
            }
        }
    }

    private static void requireDomain(String address, String domain) throws InvalidEventException {
        if (domain.endsWith(".") || domain.startsWith(".") || domain.contains("..")) {
            throw invalid(address, "has an empty label in its domain");
        }
        for (String label : domain.split("\\.", -1)) {
            if (label.getBytes(StandardCharsets.UTF_8).length > MAX_LABEL_OCTETS) {
                throw invalid(address, "has a domain label longer than " + MAX_LABEL_OCTETS + " octets");
            }
            if (label.startsWith("-") || label.endsWith("-")) {
                throw invalid(address, "has a domain label that starts or ends with '-'");
            }
            for (int i = 0; i < label.length(); ) {
                int c = label.codePointAt(i);
                i += Character.charCount(c);
                if (!(c == '-' || isAsciiLetterOrDigit(c) || c >= 128 && isUnicodeWordChar(c))) {
                    throw invalid(address, "has a character not allowed in a domain name");
                }
            }
        }
    }

    private static boolean isAsciiLetterOrDigit(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    /** Letters, marks and digits of any script; no symbols or punctuation beyond ASCII's own. */
    private static boolean isUnicodeWordChar(int c) {
        return switch (Character.getType(c)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                 Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.NON_SPACING_MARK,
                 Character.COMBINING_SPACING_MARK, Character.DECIMAL_DIGIT_NUMBER -> true;
            default -> false;
        };
    }

    private static InvalidEventException invalid(String address, String problem) {
        return new InvalidEventException("recipient.email: " + UntrustedText.quote(Mask.address(address)) + " " + problem);
    }
}
