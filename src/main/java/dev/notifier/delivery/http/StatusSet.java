package dev.notifier.delivery.http;

import java.util.ArrayList;
import java.util.List;

/**
 * HTTP statuses as configuration writes them: {@code 2xx,409} or {@code 408,429,5xx}, a status or a
 * whole class each.
 */
record StatusSet(List<String> entries) {

    static StatusSet parse(String text, String property) {
        List<String> entries = new ArrayList<>();
        for (String entry : text.split(",")) {
            String e = entry.strip().toLowerCase(java.util.Locale.ROOT);
            if (e.isEmpty()) {
                continue;
            }
            if (!e.matches("[1-5]xx|[1-5][0-9][0-9]")) {
                throw new IllegalStateException(property + ": '" + entry.strip() + "' is not a status (404) or a class (5xx)");
            }
            entries.add(e);
        }
        return new StatusSet(List.copyOf(entries));
    }

    boolean contains(int status) {
        String exact = String.valueOf(status);
        String family = status / 100 + "xx";
        return entries.contains(exact) || entries.contains(family);
    }

    @Override
    public String toString() {
        return String.join(",", entries);
    }
}
