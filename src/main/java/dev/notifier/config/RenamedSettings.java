package dev.notifier.config;

import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.camel.CamelContext;

/**
 * Settings that have moved. Every setting of an HTTP channel is {@code notifier.channel.<channel>.*}, push's
 * and LINE's as a channel added by configuration has them; before, push's and LINE's own lived under
 * {@code notifier.push.*} and {@code notifier.line.*}. A configuration that still sets one of those would
 * be ignored without a word (the default URL, no token): the start is refused instead, naming each key and
 * its new name. The environment variables (NOTIFIER_PUSH_URL, NOTIFIER_LINE_TOKEN, ...) are unchanged.
 */
final class RenamedSettings {

    private static final Map<String, String> MOVED = Map.of("notifier.push.", "notifier.channel.push.",
            "notifier.line.", "notifier.channel.line.");

    private RenamedSettings() {
    }

    /** Throws, naming every old key set in the service's properties files, overrides or system properties. */
    static void refuse(CamelContext context) {
        Set<String> keys = new TreeSet<>(context.getPropertiesComponent().loadProperties(RenamedSettings::moved)
                .stringPropertyNames());
        Properties system = System.getProperties();
        system.stringPropertyNames().stream().filter(RenamedSettings::moved).forEach(keys::add);
        if (!keys.isEmpty()) {
            throw new IllegalStateException("Refusing to start: " + String.join(", ", keys.stream()
                    .map(key -> key + " is now " + renamed(key)).toList())
                    + " (every HTTP channel's settings are notifier.channel.<channel>.*; the NOTIFIER_* variables are unchanged)");
        }
    }

    static boolean moved(String key) {
        return MOVED.keySet().stream().anyMatch(key::startsWith);
    }

    static String renamed(String key) {
        return MOVED.entrySet().stream().filter(e -> key.startsWith(e.getKey())).findFirst()
                .map(e -> e.getValue() + key.substring(e.getKey().length())).orElse(key);
    }
}
