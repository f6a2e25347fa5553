package dev.notifier.config;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the service and the commands read their configuration and routes: {@code config/} and
 * {@code routes/} in the working directory when present, so an operator can change them without a
 * rebuild; the copies packaged in the jar otherwise. One choice, made in one place.
 */
public final class ConfigLocations {

    /** The property application.properties takes camel.main.routes-include-pattern from. */
    public static final String ROUTES_PROPERTY = "notifier.routes-location";

    private ConfigLocations() {
    }

    public static String properties() {
        return Files.isRegularFile(Path.of("config/application.properties"))
                ? "file:config/application.properties"
                : "classpath:application.properties";
    }

    /** The property application.properties takes notifier.templates.location from. */
    public static final String TEMPLATES_PROPERTY = "notifier.templates-location";

    /** {@code templates/} in the working directory, else the copies packaged in the jar. */
    public static String templates() {
        return Files.isDirectory(Path.of("templates")) ? "file:templates" : "classpath:templates";
    }

    public static String routes() {
        return Files.isDirectory(Path.of("routes"))
                ? "file:routes/*.camel.yaml"
                : "classpath:routes/*.camel.yaml";
    }
}
