package dev.notifier.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.processes.ManagedProcess;
import dev.notifier.processes.NotifierInstance;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged demo as a user runs it, both ways: {@code bin/notifier demo --exit-when-done} (the README's
 * launcher: {@code java -jar target/notifier.jar demo}, as the contract has it, with its JVM options), from a directory without config/, routes/ and examples/
 * (the copies inside the jars are used); and {@code java -jar target/notifier-demo.jar --exit-when-done}
 * (its class path: notifier.jar and target/demo-lib) from the project directory. An integration test:
 * {@code mvn verify} runs it after {@code package}.
 */
class DemoJarIT {

    private static final Path SERVICE_JAR = Path.of(System.getProperty("notifier.jar", "target/notifier.jar"))
            .toAbsolutePath();
    private static final Path DEMO_JAR = Path.of(System.getProperty("notifier.demo.jar", "target/notifier-demo.jar"))
            .toAbsolutePath();
    private static final Path SCRIPT = NotifierInstance.SCRIPT.toAbsolutePath();
    private static final long TIMEOUT_SECONDS = 240;

    /** By the README's launcher, bin/notifier, whose first run writes the class archive its later runs start from. */
    @Test
    void shouldRunOnTheCopiesPackagedInTheJar(@TempDir Path emptyDirectory, @TempDir Path archives) throws Exception {
        Path archive = archives.resolve("notifier-demo.jsa");
        Map<String, String> launcher = Map.of("NOTIFIER_JAR", SERVICE_JAR.toString(),
                "NOTIFIER_CLASS_ARCHIVE", archive.toString(), "JAVA_HOME", System.getProperty("java.home"));
        List<String> script = List.of("sh", SCRIPT.toString());

        String output = run(emptyDirectory, script, launcher, withDemoOptions("demo"));

        assertThat(output)
                .contains("Properties location: classpath:application.properties")
                .contains("from examples/events.jsonl (packaged copy)")
                .contains("the work settled", "records consumed (committed offsets)");
        assertThat(archive).as("the class archive the demo's first run writes on exit").isNotEmptyFile();
        // a later run loads the application's classes from it: the dynamic archive is the "top" layer
        Map<String, String> sharing = new HashMap<>(launcher);
        sharing.put("NOTIFIER_JAVA_OPTS", "-Xmx256m -Xshare:on -Xlog:class+load=info");
        assertThat(run(emptyDirectory, script, sharing, List.of("--help")))
                .contains("usage:")
                .containsPattern("dev\\.notifier\\.\\S+ source: shared objects file \\(top\\)");
    }

    @Test
    void shouldRunFromTheProjectDirectory() throws Exception {
        String output = run(Path.of("").toAbsolutePath(), List.of(ManagedProcess.JAVA, "-jar", DEMO_JAR.toString()), Map.of(),
                withDemoOptions());

        assertThat(output)
                .contains("Properties location: file:config/application.properties")
                .contains("from examples/events.jsonl to")
                .contains("the work settled", "records consumed (committed offsets)");
    }

    private static List<String> withDemoOptions(String... commandWords) throws java.io.IOException {
        List<String> words = new ArrayList<>(List.of(commandWords));
        words.add("--exit-when-done");
        words.addAll(FreePorts.demoOptions());
        return words;
    }

    /** Runs {@code launcher} with {@code words} in {@code directory}; returns what it printed, failing unless it exits 0 in time. */
    private static String run(Path directory, List<String> launcher, Map<String, String> environment, List<String> words)
            throws Exception {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(words);
        Path log = Files.createTempFile("notifier-demo-it-", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            Process demo = builder.start();
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
