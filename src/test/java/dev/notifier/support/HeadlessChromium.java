package dev.notifier.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Chromium, headless, as a person's browser: it runs the page's JavaScript against the real server and
 * hands back the DOM it ended with, or a screenshot. The test command installs it when it is missing
 * (see {@link ChromiumInstall}), so the tests need nothing but Java and Maven on a Debian-like machine.
 */
public final class HeadlessChromium {

    private static final long TIMEOUT_SECONDS = 90;

    private HeadlessChromium() {
    }

    /** The DOM after the page's scripts ran for (virtual) five seconds: fetches answered, page drawn. */
    public static String dumpDom(String url) throws IOException, InterruptedException {
        return run(List.of("--virtual-time-budget=5000", "--dump-dom", url));
    }

    public static void screenshot(String url, Path file) throws IOException, InterruptedException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        run(List.of("--virtual-time-budget=5000", "--hide-scrollbars", "--window-size=1280,900",
                "--screenshot=" + file.toAbsolutePath(), url));
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("Chromium wrote no screenshot to " + file);
        }
    }

    private static String run(List<String> arguments) throws IOException, InterruptedException {
        Path binary = ChromiumInstall.binary();
        Path profile = Files.createTempDirectory("chromium-profile");
        Path output = Files.createTempFile("chromium-out", ".html");
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile));
        command.addAll(arguments);
        Process process = new ProcessBuilder(command)
                .redirectOutput(output.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Chromium did not finish within " + TIMEOUT_SECONDS + " s: " + command);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("Chromium exited with " + process.exitValue() + ": " + command);
            }
            return Files.readString(output, StandardCharsets.UTF_8);
        } finally {
            process.destroyForcibly();
            Files.deleteIfExists(output);
            deleteTree(profile);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
