package dev.notifier.processes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The packaged service, {@code java -jar target/notifier.jar}, as an operator would run it. */
public final class NotifierInstance extends ManagedProcess {

    public static final Path JAR = Path.of("target", "notifier.jar");
    /** The README's command: the jar with the JVM options and class archive the script chooses. */
    public static final Path SCRIPT = Path.of("bin", "notifier");
    /** Small and quick to start: the fault suite runs many short-lived instances side by side. */
    public static final List<String> LIGHT_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final Map<String, String> environment;
    private final Map<String, String> systemProperties;
    private List<String> jvmOptions = LIGHT_JVM;
    private boolean viaScript;

    public NotifierInstance(String name, Path logDir, Map<String, String> environment, Map<String, String> systemProperties)
            throws IOException {
        super(name, logDir);
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " is missing: the suite runs the packaged jar (mvn -B verify builds it)");
        }
        this.environment = new HashMap<>(environment);
        this.environment.put("NOTIFIER_HTTP_PORT", String.valueOf(freePort()));
        this.systemProperties = systemProperties;
    }

    /** The environment that points an instance at this broker, database and sinks; the caller may add to it. */
    public static Map<String, String> wiredTo(KafkaBrokerProcess kafka, String topic, String group, String dbUrl,
                                              String dbUser, RecordingSinks sinks) {
        Map<String, String> env = wiredTo(kafka, topic, group, dbUrl, dbUser, sinks.smtpPort, sinks.pushUrl());
        env.put("NOTIFIER_LINE_URL", sinks.lineUrl());
        env.put("NOTIFIER_LINE_TOKEN", RecordingSinks.LINE_TOKEN);
        return env;
    }

    /** As above, for any SMTP server on 127.0.0.1 and push gateway. */
    public static Map<String, String> wiredTo(KafkaBrokerProcess kafka, String topic, String group, String dbUrl,
                                              String dbUser, int smtpPort, String pushUrl) {
        Map<String, String> env = new HashMap<>();
        env.put("NOTIFIER_KAFKA_BROKERS", kafka.bootstrap());
        env.put("NOTIFIER_KAFKA_TOPIC", topic);
        env.put("NOTIFIER_DLQ_TOPIC", topic + ".dlq");
        env.put("NOTIFIER_KAFKA_GROUP", group);
        env.put("NOTIFIER_DB_URL", dbUrl);
        env.put("NOTIFIER_DB_USER", dbUser);
        env.put("NOTIFIER_SMTP_HOST", "127.0.0.1");
        env.put("NOTIFIER_SMTP_PORT", String.valueOf(smtpPort));
        env.put("NOTIFIER_PUSH_URL", pushUrl);
        return env;
    }

    /** JVM options instead of {@link #LIGHT_JVM}; takes effect at the next start. */
    public NotifierInstance jvmOptions(List<String> options) {
        jvmOptions = List.copyOf(options);
        return this;
    }

    /**
     * Started as the README starts it, {@code bin/notifier}, from the next start on: the script's own JVM
     * options and class archive; the options set here and the system properties go in NOTIFIER_JAVA_OPTS
     * when there are any.
     */
    public NotifierInstance viaScript() {
        viaScript = true;
        jvmOptions = List.of();
        return this;
    }

    @Override
    protected Map<String, String> environment() {
        if (!viaScript) {
            return environment;
        }
        Map<String, String> env = new HashMap<>(environment);
        env.put("JAVA_HOME", System.getProperty("java.home"));
        List<String> options = javaOptions();
        if (!options.isEmpty()) {
            env.put("NOTIFIER_JAVA_OPTS", String.join(" ", options));
        }
        return env;
    }

    @Override
    protected List<String> launcher() {
        return viaScript ? List.of("sh", SCRIPT.toString()) : super.launcher();
    }

    @Override
    protected List<String> command() {
        if (viaScript) {
            return List.of();
        }
        List<String> command = javaOptions();
        command.add("-jar");
        command.add(JAR.toString());
        return command;
    }

    private List<String> javaOptions() {
        List<String> options = new ArrayList<>(jvmOptions);
        systemProperties.forEach((k, v) -> options.add("-D" + k + "=" + v));
        return options;
    }

    public NotifierInstance launch() throws IOException {
        start();
        return this;
    }

    /** Kill -9 and start again, same configuration. */
    public void crashAndRestart() throws Exception {
        kill9();
        start();
    }

    /** Waits until Camel reports the context started: the consumers are about to join the group. */
    public NotifierInstance awaitStarted() {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> log().contains("(notifier) started in"));
        return this;
    }

    public int stopGracefully() throws InterruptedException {
        return terminate(Duration.ofSeconds(45));
    }

    /** The management port it listens on (NOTIFIER_HTTP_PORT). */
    public int httpPort() {
        return Integer.parseInt(environment.get("NOTIFIER_HTTP_PORT"));
    }

    /** CPU time the process has used so far. */
    public long cpuMillis() {
        return ProcessHandle.of(pid()).flatMap(h -> h.info().totalCpuDuration()).map(java.time.Duration::toMillis)
                .orElseThrow(() -> new IllegalStateException("no CPU time for " + name));
    }

    public String log() throws IOException {
        return Files.exists(logFile) ? Files.readString(logFile) : "";
    }
}
