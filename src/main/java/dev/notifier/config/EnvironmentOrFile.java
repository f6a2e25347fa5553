package dev.notifier.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.PropertiesFunction;

/**
 * Camel's {@code {{env:NAME:default}}} placeholder function, which also reads {@code NAME_FILE}: the
 * path of a file whose content (one trailing newline trimmed) is the value, as Kubernetes and Docker
 * mount secrets. Replaces the built-in {@code env} function, so application.properties reads as
 * plain Camel configuration and every variable gets the {@code _FILE} form.
 */
public final class EnvironmentOrFile implements PropertiesFunction {

    private final UnaryOperator<String> environment;

    public EnvironmentOrFile(UnaryOperator<String> environment) {
        this.environment = environment;
    }

    /** Puts this function in place of the built-in one, reading the process's environment. */
    public static void install(CamelContext context) {
        install(context, System::getenv);
    }

    /** As {@link #install(CamelContext)}, with the environment given (tests). */
    public static void install(CamelContext context, UnaryOperator<String> environment) {
        // built first: building adds Camel's own env function, which this one then replaces
        context.build();
        context.getPropertiesComponent().addPropertiesFunction(new EnvironmentOrFile(environment));
    }

    @Override
    public String getName() {
        return "env";
    }

    @Override
    public String apply(String remainder) {
        int colon = remainder.indexOf(':');
        String name = colon < 0 ? remainder : remainder.substring(0, colon);
        String defaultValue = colon < 0 ? null : remainder.substring(colon + 1);
        String value = environment.apply(name);
        String file = environment.apply(name + "_FILE");
        if (file != null && value != null) {
            throw new IllegalArgumentException("both " + name + " and " + name + "_FILE are set: set one of them");
        }
        if (file != null) {
            return read(name, file);
        }
        return value != null ? value : defaultValue;
    }

    private static String read(String name, String file) {
        try {
            String content = Files.readString(Path.of(file), StandardCharsets.UTF_8);
            if (content.endsWith("\r\n")) {
                return content.substring(0, content.length() - 2);
            }
            return content.endsWith("\n") ? content.substring(0, content.length() - 1) : content;
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(name + "_FILE: cannot read " + file + " (" + e.getClass().getSimpleName()
                    + ")", e);
        }
    }
}
