package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.processes.ManagedProcess;
import dev.notifier.support.TestKafka;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The packaged service jar, target/notifier.jar: what it holds (no demo, no broker, no Scala, no
 * GreenMail, no embedded database; under 45 MB: 40.8 MB with FreeMarker for the templates, 80 MB
 * before the demo moved out) and that it still runs what it trimmed around: its
 * command line, and Kafka clients built without kafka-clients' shaded telemetry classes (a replay of
 * the DLQ through the jar creates a consumer and a producer). An integration test: after package.
 */
class ServiceJarIT {

    private static final Path JAR = Path.of(System.getProperty("notifier.jar", "target/notifier.jar")).toAbsolutePath();

    @Test
    void shouldHoldTheServiceOnly() throws IOException {
        List<String> foreign = new ArrayList<>();
        try (ZipFile jar = new ZipFile(JAR.toFile())) {
            jar.stream().map(ZipEntry::getName)
                    .filter(name -> name.startsWith("kafka/server/") || name.startsWith("kafka/log/")
                            || name.startsWith("scala/") || name.startsWith("org/h2/") || name.startsWith("com/icegreen/")
                            || name.startsWith("io/zonky/") || name.startsWith("dev/notifier/demo/")
                            || name.startsWith("examples/") || name.startsWith("org/apache/kafka/shaded/"))
                    .limit(20).forEach(foreign::add);
            assertThat(jar.getEntry("dev/notifier/NotifierApplication.class")).isNotNull();
            assertThat(jar.getEntry("routes/record-event.camel.yaml")).isNotNull();
        }
        assertThat(foreign).as("classes the service does not run").isEmpty();
        assertThat(Files.size(JAR)).as("bytes").isLessThan(45_000_000L);
    }

    @Test
    void shouldAnswerItsCommandLine() throws Exception {
        assertThat(java(Map.of(), "--version")).startsWith("0\nnotifier ").contains("(Apache Camel 4.");
        assertThat(java(Map.of(), "-h")).startsWith("0\nusage: java -jar notifier.jar");
        assertThat(java(Map.of(), "stauts")).startsWith("2\nnotifier: unknown command 'stauts'; did you mean 'status'?");
    }

    @Test
    void shouldRunKafkaClientsFromTheTrimmedJar() throws Exception {
        String topic = TestKafka.createTopic("jar-events", 1);
        String dlqTopic = TestKafka.createTopic("jar-events-dlq", 1);
        TestKafka.send(dlqTopic, List.of(new ProducerRecord<>(dlqTopic, "TRX-1".getBytes(StandardCharsets.UTF_8),
                "{\"fixed\":1}".getBytes(StandardCharsets.UTF_8))));

        String output = java(Map.of("NOTIFIER_KAFKA_BROKERS", TestKafka.bootstrapServers(), "NOTIFIER_KAFKA_TOPIC", topic,
                "NOTIFIER_DLQ_TOPIC", dlqTopic, "NOTIFIER_KAFKA_GROUP", "notifier-" + topic), "dlq", "replay");

        assertThat(output).startsWith("0\nreplayed 1 record(s) from " + dlqTopic + " to " + topic);
        assertThat(TestKafka.readAll(topic, 1, Duration.ofSeconds(30))).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactly("{\"fixed\":1}");
    }

    /**
     * Started in a directory without routes/, the jar names each packaged route file instead of a
     * classpath wildcard (Camel reads the whole jar to match one), and starts the same routes as from
     * a routes/ directory holding the project's route files.
     */
    @Test
    void shouldStartThePackagedRoutesWithoutAClasspathWildcard() throws Exception {
        Path withRoutes = Files.createTempDirectory("notifier-jar-it-");
        Path routes = Files.createDirectories(withRoutes.resolve("routes"));
        try (java.util.stream.Stream<Path> files = Files.list(Path.of("routes"))) {
            for (Path file : files.toList()) {
                Files.copy(file, routes.resolve(file.getFileName()));
            }
        }
        try (dev.notifier.support.TestDatabase db = new dev.notifier.support.TestDatabase()) {
            // Camel Main stops itself after a second of running; nothing to consume from
            Map<String, String> environment = Map.of("NOTIFIER_DB_URL", db.url(), "NOTIFIER_DB_USER",
                    dev.notifier.support.TestDatabase.USER, "NOTIFIER_KAFKA_BROKERS", "127.0.0.1:1",
                    "JAVA_TOOL_OPTIONS", "-Dcamel.main.duration-max-seconds=1");
            String packaged = java(Files.createTempDirectory("notifier-jar-it-"), environment);
            String fromFiles = java(withRoutes, environment);

            assertThat(packaged).contains("notifier.routes-location = classpath:routes/")
                    .contains("classpath:routes/record-event.camel.yaml").doesNotContain("classpath:routes/*");
            assertThat(routesStartup(packaged)).isNotEmpty().isEqualTo(routesStartup(fromFiles));
        }
    }

    /** Camel's line "Routes startup (total:... started:...)" with the routes it lists, sorted. */
    private static List<String> routesStartup(String log) {
        return log.lines().filter(line -> line.contains("Routes startup (") || line.contains("    Started "))
                .map(line -> line.substring(line.indexOf(" - ") + 3)).sorted().toList();
    }

    /** Runs the jar in an empty directory; returns its exit code, a newline, and its standard output. */
    private static String java(Map<String, String> environment, String... args) throws Exception {
        return java(Files.createTempDirectory("notifier-jar-it-"), environment, args);
    }

    private static String java(Path directory, Map<String, String> environment, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ManagedProcess.JAVA,
                "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Path out = directory.resolve("out.txt");
        Path err = directory.resolve("err.txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        boolean exited = process.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        String stderr = Files.readString(err);
        assertThat(exited).as("exited in time; stderr:%n%s", stderr).isTrue();
        String stdout = Files.readString(out);
        return process.exitValue() + "\n" + (stdout.isEmpty() ? stderr : stdout);
    }
}
