package dev.notifier;

import dev.notifier.cli.Commands;
import dev.notifier.config.ConfigLocations;
import dev.notifier.config.NotifierConfiguration;
import dev.notifier.ops.OpsConfiguration;
import java.util.Map;
import java.util.Optional;
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
        Main main = new Main();
        main.configure().addConfiguration(NotifierConfiguration.class);
        main.configure().addConfiguration(OpsConfiguration.class);
        main.setPropertyPlaceholderLocations(ConfigLocations.properties());
        main.configure().withRoutesIncludePattern(ConfigLocations.routes());
        overrides.forEach(main::addOverrideProperty);
        return main;
    }
}
