package dev.notifier.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Ages and periods as an operator writes them: {@code 30d}, {@code 12h}, {@code 15m}, {@code 45s}. */
public final class Durations {

    private static final Pattern AMOUNT_AND_UNIT = Pattern.compile("(\\d{1,9})([dhms])");

    private Durations() {
    }

    public static Duration parse(String text) {
        Matcher matcher = AMOUNT_AND_UNIT.matcher(text == null ? "" : text.strip().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration such as 30d, 12h, 15m or 45s");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "d" -> Duration.ofDays(amount);
            case "h" -> Duration.ofHours(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofSeconds(amount);
        };
    }
}
