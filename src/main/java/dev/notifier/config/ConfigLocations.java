package dev.notifier.config;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

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

    /**
     * {@code routes/*.camel.yaml} in the working directory, else the route files packaged with the
     * service, each by its name. Not a wildcard over the classpath: Camel finds what one matches by
     * reading the whole jar, every entry inflated, and does so twice (to pre-parse the routes, then to
     * load them): about 1.5 s of a start on two cores.
     */
    public static String routes() {
        if (Files.isDirectory(Path.of("routes"))) {
            return "file:routes/*.camel.yaml";
        }
        List<String> packaged = packagedRoutes();
        return packaged.isEmpty() ? "classpath:routes/*.camel.yaml"
                : packaged.stream().map(name -> "classpath:" + name).collect(Collectors.joining(","));
    }

    /**
     * The route files packaged beside this class: from the jar's directory of entries (nothing
     * inflated), or the classes directory's {@code routes/}; none when neither reads, and the wildcard
     * then finds them the slow way.
     */
    static List<String> packagedRoutes() {
        try {
            Path source = Path.of(ConfigLocations.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(source)) {
                Path routes = source.resolve("routes");
                if (!Files.isDirectory(routes)) {
                    return List.of();
                }
                try (Stream<Path> files = Files.list(routes)) {
                    return files.map(file -> "routes/" + file.getFileName()).filter(ConfigLocations::isRouteFile).sorted()
                            .toList();
                }
            }
            try (ZipFile jar = new ZipFile(source.toFile())) {
                return jar.stream().map(ZipEntry::getName).filter(ConfigLocations::isRouteFile).sorted().toList();
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return List.of();
        }
    }

    private static boolean isRouteFile(String name) {
        return name.startsWith("routes/") && name.endsWith(".camel.yaml") && name.indexOf('/', "routes/".length()) < 0;
    }
}
