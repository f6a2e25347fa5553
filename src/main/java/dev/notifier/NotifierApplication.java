package dev.notifier;

import dev.notifier.cli.Commands;
import dev.notifier.config.ConfigLocations;
import dev.notifier.config.EnvironmentOrFile;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.camel.CamelContext;
import org.apache.camel.main.Main;

/** Runs Notifier with Camel Main. */
public final class NotifierApplication {

    private NotifierApplication() {
    }

    public static void main(String[] args) throws Exception {
        Optional<Integer> exitCode = Commands.runIfCommand(args);
        if (exitCode.isPresent()) {
            System.exit(exitCode.get());
        }
        newMain(Map.of()).run(args);
    }

    /**
     * A Camel Main for Notifier. Routes and configuration are read from {@code routes/} and
     * {@code config/} in the working directory when present, so an operator can change a route
     * without a rebuild; the copies packaged in the jar are the fallback.
     *
     * @param overrides properties that win over application.properties (tests, the demo)
     */
    public static Main newMain(Map<String, String> overrides) {
        return newMain(overrides, System::getenv);
    }

    /** As {@link #newMain(Map)}, reading {@code NOTIFIER_*} variables from the given environment (tests). */
    public static Main newMain(Map<String, String> overrides, UnaryOperator<String> environment) {
        Main main = new Main() {
            @Override
            protected CamelContext createCamelContext() {
                CamelContext context = super.createCamelContext();
                // every {{env:NAME}} may also be NAME_FILE, before anything reads a placeholder
                EnvironmentOrFile.install(context, environment);
                return context;
            }
        };
        // the configuration classes, the route builder and the routes' location are named in
        // application.properties (camel.main.*), as Camel's tooling expects; only where the
        // properties and routes are read from is decided here
        main.setPropertyPlaceholderLocations(ConfigLocations.properties());
        main.addInitialProperty(ConfigLocations.ROUTES_PROPERTY, ConfigLocations.routes());
        main.addInitialProperty(ConfigLocations.TEMPLATES_PROPERTY, ConfigLocations.templates());
        overrides.forEach(main::addOverrideProperty);
        return main;
    }
}
