package dev.notifier.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged demo as a user runs it, both ways: {@code java -jar target/notifier.jar demo
 * --exit-when-done}, as the contract has it, from a directory without config/, routes/ and examples/
 * (the copies inside the jars are used); and {@code java -jar target/notifier-demo.jar --exit-when-done}
 * (its class path: notifier.jar and target/demo-lib) from the project directory. An integration test:
 * {@code mvn verify} runs it after {@code package}.
 */
class DemoJarIT {

    private static final Path SERVICE_JAR = Path.of(System.getProperty("notifier.jar", "target/notifier.jar"))
            .toAbsolutePath();
    private static final Path DEMO_JAR = Path.of(System.getProperty("notifier.demo.jar", "target/notifier-demo.jar"))
            .toAbsolutePath();
    private static final long TIMEOUT_SECONDS = 240;

    @Test
    void shouldRunOnTheCopiesPackagedInTheJar(@TempDir Path emptyDirectory) throws Exception {
        String output = demoIn(emptyDirectory, SERVICE_JAR, "demo");

        assertThat(output)
                .contains("Properties location: classpath:application.properties")
                .contains("from examples/events.jsonl (packaged copy)")
                .contains("the work settled", "records consumed (committed offsets)");
    }

    @Test
    void shouldRunFromTheProjectDirectory() throws Exception {
        String output = demoIn(Path.of("").toAbsolutePath(), DEMO_JAR);

        assertThat(output)
                .contains("Properties location: file:config/application.properties")
                .contains("from examples/events.jsonl to")
                .contains("the work settled", "records consumed (committed offsets)");
    }

    /** Runs {@code jar} (with {@code commandWords}) in {@code directory}; returns what it printed, failing unless it exits 0 in time. */
    private static String demoIn(Path directory, Path jar, String... commandWords) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString()));
        command.addAll(List.of(commandWords));
        command.add("--exit-when-done");
        command.addAll(FreePorts.demoOptions());
        Path log = Files.createTempFile("notifier-demo-it-", ".log");
        try {
            Process demo = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            boolean exited = demo.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!exited) {
                demo.destroy();
                demo.waitFor(30, TimeUnit.SECONDS);
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(exited).as("exited within %d s:%n%s", TIMEOUT_SECONDS, output).isTrue();
            assertThat(demo.exitValue()).as("exit code; output:%n%s", output).isZero();
            return output;
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
