package dev.notifier.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Currency;
import java.util.UUID;
import java.util.regex.Pattern;

/** Reading one field of the event JSON by the contract's rules, or saying in one line why not. */
final class EventFields {

    private static final Pattern DECIMAL = Pattern.compile("\\d{1,18}(\\.\\d{1,8})?");
    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
    /** Any text field that is not stored in a column of its own; those follow {@link ColumnLimits}. */
    static final int MAX_FIELD_CHARS = 1000;

    private EventFields() {
    }

    static UUID uuid(ObjectNode node, String field) throws InvalidEventException {
        String text = requiredText(node, field);
        try {
            UUID uuid = UUID.fromString(text);
            // UUID.fromString accepts short forms such as "1-2-3-4-5"; the contract means the canonical one
            if (!uuid.toString().equalsIgnoreCase(text)) {
                throw new IllegalArgumentException();
            }
            return uuid;
        } catch (IllegalArgumentException e) {
            throw new InvalidEventException(field + ": '" + text + "' is not a UUID");
        }
    }

    static Instant instant(ObjectNode node, String field) throws InvalidEventException {
        String text = requiredText(node, field);
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new InvalidEventException(field + ": '" + text + "' is not an ISO-8601 instant");
        }
    }

    static BigDecimal amount(ObjectNode node, String field) throws InvalidEventException {
        String text = requiredText(node, field);
        if (!DECIMAL.matcher(text).matches()) {
            throw new InvalidEventException(field + ": '" + text + "' is not a positive decimal string");
        }
        BigDecimal amount = new BigDecimal(text);
        if (amount.signum() <= 0) {
            throw new InvalidEventException(field + ": must be greater than zero");
        }
        return amount;
    }

    static String currency(ObjectNode node, String field) throws InvalidEventException {
        String text = requiredText(node, field);
        try {
            if (CURRENCY.matcher(text).matches()) {
                return Currency.getInstance(text).getCurrencyCode();
            }
        } catch (IllegalArgumentException e) {
            // falls through to the error below
        }
        throw new InvalidEventException(field + ": '" + text + "' is not an ISO 4217 currency code");
    }

    static String requiredText(ObjectNode node, String field) throws InvalidEventException {
        return requiredText(node, field, field);
    }

    static String requiredText(ObjectNode node, String path, String field) throws InvalidEventException {
        return requiredText(node, path, field, MAX_FIELD_CHARS);
    }

    /** As {@link #requiredText(ObjectNode, String, String)}, for a field stored in a column at most {@code maxChars} wide. */
    static String requiredText(ObjectNode node, String path, String field, int maxChars) throws InvalidEventException {
        String text = optionalText(node, path, field, maxChars);
        if (text == null || text.isBlank()) {
            throw new InvalidEventException(path + ": missing");
        }
        if (hasControl(text)) {
            throw new InvalidEventException(path + ": contains control characters");
        }
        return text;
    }

    static String optionalText(ObjectNode node, String path, String field) throws InvalidEventException {
        return optionalText(node, path, field, MAX_FIELD_CHARS);
    }

    private static String optionalText(ObjectNode node, String path, String field, int maxChars)
            throws InvalidEventException {
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

    static boolean hasControl(String text) {
        return text.chars().anyMatch(Character::isISOControl);
    }
}
