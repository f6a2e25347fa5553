package dev.notifier.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.Properties;

/**
 * What {@code --version} prints: Notifier's version, Camel's and Java's. Both versions come from the
 * {@code pom.properties} Maven writes into every jar (the shaded jar keeps them); a build run from
 * classes, as in the tests, has none of its own.
 */
final class Version {

    private Version() {
    }

    static String describe() {
        return "notifier " + of("dev.notifier", "notifier").orElse("(development build)")
                + " (Apache Camel " + of("org.apache.camel", "camel-api").orElse("unknown")
                + ", Java " + Runtime.version() + ")";
    }

    private static Optional<String> of(String group, String artifact) {
        String path = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = Version.class.getResourceAsStream(path)) {
            if (in == null) {
                return Optional.empty();
            }
            Properties properties = new Properties();
            properties.load(in);
            return Optional.ofNullable(properties.getProperty("version"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
