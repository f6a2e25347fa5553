package dev.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Where the packaged routes are read from when the working directory has none. */
class ConfigLocationsTest {

    /** Every route file the build packages (the project's routes/), by name: a new one needs no list kept by hand. */
    @Test
    void shouldNameEveryPackagedRouteFile() throws IOException {
        List<String> expected;
        try (Stream<Path> files = Files.list(Path.of("routes"))) {
            expected = files.map(file -> "routes/" + file.getFileName()).filter(name -> name.endsWith(".camel.yaml"))
                    .sorted().toList();
        }

        assertThat(expected).hasSizeGreaterThan(10);
        assertThat(ConfigLocations.packagedRoutes()).isEqualTo(expected);
    }
}
