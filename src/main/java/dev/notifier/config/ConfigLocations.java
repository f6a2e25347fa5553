package dev.notifier.config;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
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

    /** The route files packaged with the service ({@code routes/*.camel.yaml}), by name. */
    static List<String> packagedRoutes() {
        return packagedFiles("routes/", ".camel.yaml");
    }

    /**
     * The files packaged beside this class directly in {@code directory} (ending in "/") whose names
     * end in {@code suffix}, sorted: from the jar's directory of entries (nothing inflated), or the
     * classes directory; none when neither reads (a caller then does it the slow way).
     */
    static List<String> packagedFiles(String directory, String suffix) {
        Predicate<String> wanted = name -> name.startsWith(directory) && name.endsWith(suffix)
                && name.indexOf('/', directory.length()) < 0;
        try {
            Path source = Path.of(ConfigLocations.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(source)) {
                Path files = source.resolve(directory);
                if (!Files.isDirectory(files)) {
                    return List.of();
                }
                try (Stream<Path> listed = Files.list(files)) {
                    return listed.map(file -> directory + file.getFileName()).filter(wanted).sorted().toList();
                }
            }
            try (ZipFile jar = new ZipFile(source.toFile())) {
                return jar.stream().map(ZipEntry::getName).filter(wanted).sorted().toList();
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return List.of();
        }
    }
}
