package dev.notifier.support;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds Chromium for the status page tests, or installs it: {@code -Dnotifier.test.chromium=path} when
 * given; else one on the machine ({@code chromium}, {@code chromium-browser}, Chrome), after the install
 * {@code .ci/run} started early, if it still runs; else, as root,
 * Debian's package ({@code apt-get install chromium}); else Debian's package unpacked under
 * {@code target/chromium} with {@code apt-get download} and {@code dpkg-deb -x}, no root needed (its
 * shared libraries must be on the machine, as on any desktop; a missing one is named).
 */
final class ChromiumInstall {

    private static final List<String> ON_THE_MACHINE = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser",
            "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable", "/snap/bin/chromium");
    private static final Path UNPACKED = Path.of("target", "chromium").toAbsolutePath();
    private static final Path UNPACKED_BINARY = UNPACKED.resolve("usr/lib/chromium/chromium");
    private static Path binary;

    private ChromiumInstall() {
    }

    static synchronized Path binary() throws IOException, InterruptedException {
        if (binary == null) {
            binary = find().orElseGet(ChromiumInstall::installOnce);
        }
        return binary;
    }

    /**
     * Installs under a file lock: the test JVMs run side by side (surefire's forks), and two package
     * installs at once fail on dpkg's own lock. The one that waited finds what the other installed.
     */
    private static Path installOnce() {
        Path lock = Path.of("target", "chromium-install.lock").toAbsolutePath();
        try {
            Files.createDirectories(lock.getParent());
            try (var channel = java.nio.channels.FileChannel.open(lock, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE); var held = channel.lock()) {
                awaitEarlyInstall();
                return find().orElseGet(ChromiumInstall::install);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not lock " + lock + " to install Chromium: " + e.getMessage(), e);
        }
    }

    /**
     * {@code .ci/run} starts the package install beside the build, so a fresh machine does not pay for
     * it in a test: while that process runs, it is waited for (a second apt-get would fail on its lock).
     */
    private static void awaitEarlyInstall() throws IOException {
        Path pidFile = Path.of("target", "chromium-install.pid");
        if (!Files.isReadable(pidFile)) {
            return;
        }
        try {
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            java.time.Instant written = Files.getLastModifiedTime(pidFile).toInstant();
            // that install, not a later process that reused its pid
            ProcessHandle.of(pid).filter(install -> install.info().startInstant()
                            .map(started -> !started.isAfter(written)).orElse(false))
                    .ifPresent(install -> install.onExit().orTimeout(600, TimeUnit.SECONDS).join());
        } catch (NumberFormatException | java.util.concurrent.CompletionException e) {
            // an unreadable pid or an install that did not end: the tests' own install says what is wrong
        }
    }

    private static Optional<Path> find() {
        String configured = System.getProperty("notifier.test.chromium");
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Path.of(configured));
        }
        List<Path> candidates = new ArrayList<>();
        ON_THE_MACHINE.forEach(c -> candidates.add(Path.of(c)));
        candidates.add(UNPACKED_BINARY);
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    private static Path install() {
        try {
            if ("root".equals(System.getProperty("user.name"))) {
                run(null, "apt-get", "update", "-qq");
                run(null, "apt-get", "install", "-y", "-qq", "chromium");
                return find().orElseThrow(() -> new IllegalStateException("apt-get installed no chromium binary"));
            }
            Path debs = UNPACKED.resolve("debs");
            Files.createDirectories(debs);
            run(debs.toFile(), "apt-get", "download", "chromium", "chromium-common");
            try (var files = Files.list(debs)) {
                for (Path deb : files.filter(f -> f.toString().endsWith(".deb")).toList()) {
                    run(null, "dpkg-deb", "-x", deb.toString(), UNPACKED.toString());
                }
            }
            String missing = run(null, "ldd", UNPACKED_BINARY.toString()).lines()
                    .filter(line -> line.contains("not found")).map(String::strip).reduce((a, b) -> a + ", " + b).orElse("");
            if (!missing.isEmpty()) {
                throw new IllegalStateException("Chromium unpacked under " + UNPACKED + " lacks shared libraries (" + missing
                        + "): install Chromium with your package manager (apt-get install chromium) and run the tests again");
            }
            return UNPACKED_BINARY;
        } catch (IOException e) {
            throw new IllegalStateException("could not install Chromium for the status page tests: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing Chromium", e);
        }
    }

    private static String run(File dir, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(600, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed:\n" + output);
        }
        return output;
    }
}
