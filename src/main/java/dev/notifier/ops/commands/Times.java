package dev.notifier.ops.commands;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** Instants in and out of the commands: option values, TIMESTAMP WITH TIME ZONE columns, output. */
final class Times {

    private Times() {
    }

    /** An ISO-8601 instant, or an age back from now ({@code 1d}, {@code 12h}), given as an option value ({@code --since}). */
    static Instant argument(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            try {
                return Instant.now().minus(dev.notifier.config.Durations.parse(text));
            } catch (RuntimeException notAnAge) {
                throw new IllegalArgumentException("'" + text
                        + "' is neither an ISO-8601 instant such as 2026-12-02T00:00:00Z nor an age such as 1d");
            }
        }
    }

    /** A TIMESTAMP WITH TIME ZONE column as an instant. */
    static Instant column(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** A parameter for a TIMESTAMP WITH TIME ZONE column, unambiguous on both databases. */
    static OffsetDateTime parameter(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    static String format(Instant instant) {
        return instant == null ? "-" : instant.truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
