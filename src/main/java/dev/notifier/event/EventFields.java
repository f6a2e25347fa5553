package dev.notifier.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Currency;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Reading one field of the event JSON by the contract's rules, or saying in one line why not. Every
 * length is checked before anything else looks at a value, and every value a reason quotes is cut
 * ({@link UntrustedText#quote}), so a field costs time linear in its (bounded) length.
 */
final class EventFields {

    private static final Pattern DECIMAL = Pattern.compile("\\d{1,18}(\\.\\d{1,8})?");
    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
    /** Any text field that is not stored in a column of its own; those follow {@link ColumnLimits}. */
    static final int MAX_FIELD_CHARS = 1000;
    /** The longest value a pattern is tried on: a decimal amount, a UUID, a currency code fit well within it. */
    private static final int MAX_SHORT_CHARS = 64;

    private EventFields() {
    }

    static UUID uuid(ObjectNode node, String field) throws InvalidEventException {
        String text = requiredText(node, field, field, MAX_SHORT_CHARS);
        try {
            UUID uuid = UUID.fromString(text);
            // UUID.fromString accepts short forms such as "1-2-3-4-5"; the contract means the canonical one
            if (!uuid.toString().equalsIgnoreCase(text)) {
                throw new IllegalArgumentException();
            }
            return uuid;
        } catch (IllegalArgumentException e) {
            throw new InvalidEventException(field + ": " + UntrustedText.quote(text) + " is not a UUID");
        }
    }

    static Instant instant(ObjectNode node, String field) throws InvalidEventException {
        String text = requiredText(node, field, field, MAX_SHORT_CHARS);
        Instant common = UtcInstants.parse(text);
        if (common != null) {
            return common;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new InvalidEventException(field + ": " + UntrustedText.quote(text) + " is not an ISO-8601 instant");
        }
    }

    /**
     * A positive decimal string, no finer than the currency's minor unit ({@code 0.001} THB is not
     * an amount a transfer can have; {@code 100.00} JPY is, since it is a whole number of yen).
     */
    static BigDecimal amount(ObjectNode node, String field, Currency currency) throws InvalidEventException {
        String text = requiredText(node, field, field, MAX_SHORT_CHARS);
        if (!DECIMAL.matcher(text).matches()) {
            throw new InvalidEventException(field + ": " + UntrustedText.quote(text) + " is not a positive decimal string");
        }
        BigDecimal amount = new BigDecimal(text);
        if (amount.signum() <= 0) {
            throw new InvalidEventException(field + ": must be greater than zero");
        }
        int minorUnit = currency.getDefaultFractionDigits();
        if (amount.stripTrailingZeros().scale() > minorUnit) {
            throw new InvalidEventException(field + ": " + text + " is finer than the minor unit of " + currency
                    + " (" + minorUnit + " decimals)");
        }
        return amount;
    }

    /**
     * An ISO 4217 code of a currency money is transferred in. The codes without a minor unit are
     * not: XTS (reserved for testing), XXX (no currency), precious metals and supranational units.
     */
    static Currency currency(ObjectNode node, String field) throws InvalidEventException {
        String text = requiredText(node, field, field, MAX_SHORT_CHARS);
        Currency currency;
        try {
            if (!CURRENCY.matcher(text).matches()) {
                throw new IllegalArgumentException();
            }
            currency = Currency.getInstance(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidEventException(field + ": " + UntrustedText.quote(text) + " is not an ISO 4217 currency code");
        }
        if (currency.getDefaultFractionDigits() < 0) {
            throw new InvalidEventException(field + ": " + text + " is not a currency of payments"
                    + " (a test, no-currency, metal or fund code)");
        }
        return currency;
    }

    static String requiredText(ObjectNode node, String field) throws InvalidEventException {
        return requiredText(node, field, field, MAX_FIELD_CHARS);
    }

    /** A required text at most {@code maxChars} long, with no control character. */
    static String requiredText(ObjectNode node, String path, String field, int maxChars) throws InvalidEventException {
        String text = optionalText(node, path, field, maxChars);
        if (text == null || text.isBlank()) {
            throw new InvalidEventException(path + ": missing");
        }
        if (UntrustedText.hasControl(text)) {
            throw new InvalidEventException(path + ": contains control characters");
        }
        return text;
    }

    /**
     * A required identifier: as {@link #requiredText(ObjectNode, String, String, int)}, and every
     * character visible (no white space, zero-width, bidi or other format character), so that two
     * identifiers that look the same are the same.
     */
    static String requiredIdentifier(ObjectNode node, String path, String field, int maxChars) throws InvalidEventException {
        return requireVisible(path, requiredText(node, path, field, maxChars));
    }

    /** An optional identifier: absent, or present and as {@link #requiredIdentifier}. */
    static String optionalIdentifier(ObjectNode node, String path, String field, int maxChars) throws InvalidEventException {
        String text = optionalText(node, path, field, maxChars);
        if (text == null) {
            return null;
        }
        if (text.isBlank()) {
            throw new InvalidEventException(path + ": blank");
        }
        if (UntrustedText.hasControl(text)) {
            throw new InvalidEventException(path + ": contains control characters");
        }
        return requireVisible(path, text);
    }

    /**
     * A person's name: free text, without its format characters (Unicode category Cf: bidi controls such as
     * U+202E, zero-width characters, the BOM, soft hyphens), which could reorder or hide what a message
     * shows around the name. A name with nothing visible left is absent (the templates greet the customer
     * without it): the notice still matters more than the name. Applied to stored events too, so a row
     * recorded before this rule is shown the same way.
     */
    static String optionalName(ObjectNode node, String path, String field) throws InvalidEventException {
        String name = optionalText(node, path, field);
        if (name == null) {
            return null;
        }
        String visible = UntrustedText.withoutFormatCharacters(name);
        return visible.isBlank() ? null : visible;
    }

    static String optionalText(ObjectNode node, String path, String field) throws InvalidEventException {
        return optionalText(node, path, field, MAX_FIELD_CHARS);
    }

    static String optionalText(ObjectNode node, String path, String field, int maxChars) throws InvalidEventException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new InvalidEventException(path + ": expected a string, got " + value.getNodeType().toString().toLowerCase());
        }
        if (value.asText().length() > maxChars) {
            throw new InvalidEventException(path + ": longer than " + maxChars + " characters");
        }
        return value.asText();
    }

    private static String requireVisible(String path, String text) throws InvalidEventException {
        if (!UntrustedText.isVisibleIdentifier(text)) {
            throw new InvalidEventException(path + ": contains white space or invisible (format) characters");
        }
        return text;
    }
}
