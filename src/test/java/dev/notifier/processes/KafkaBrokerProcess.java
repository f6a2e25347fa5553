package dev.notifier.processes;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A standalone Apache Kafka broker ({@code kafka.Kafka}, KRaft, broker and controller in one),
 * started from the Maven-resolved jars on the suite's own class path.
 */
public final class KafkaBrokerProcess extends ManagedProcess {

    private final Path config;
    public final int port;

    public KafkaBrokerProcess(Path workDir, Path logDir) throws Exception {
        super("kafka", logDir);
        this.port = freePort();
        int controllerPort = freePort();
        Path dataDir = Files.createDirectories(workDir.resolve("kafka-data"));
        config = workDir.resolve("server.properties");
        Files.writeString(config, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dataDir,
                "num.partitions=6",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=6",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                ""));
        runToCompletion(List.of("-cp", System.getProperty("java.class.path"), "kafka.tools.StorageTool",
                "format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()));
        startBroker();
    }

    public String bootstrap() {
        return "127.0.0.1:" + port;
    }

    @Override
    protected List<String> command() {
        return List.of("-Xmx512m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                "kafka.Kafka", config.toString());
    }

    public void startBroker() throws IOException {
        start();
        await().atMost(Duration.ofSeconds(60)).until(() -> listening(port) && ready());
    }

    public void restart(boolean hard) throws Exception {
        if (hard) {
            kill9();
        } else {
            terminate(Duration.ofSeconds(30));
        }
        startBroker();
    }

    public void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
    }

    /**
     * Until the group coordinator serves: the first group a fresh broker sees makes it create its
     * internal offsets topic, a one-off any broker in service has long done. A start-up measured on a
     * fresh broker without this would time that creation, not the consumer's join.
     */
    public void awaitGroupCoordinator() {
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
            try (Admin admin = admin()) {
                admin.listConsumerGroupOffsets("group-coordinator-ready").partitionsToOffsetAndMetadata().get();
                return true;
            }
        });
    }

    public Admin admin() {
        return Admin.create(Map.of("bootstrap.servers", bootstrap(), "request.timeout.ms", 5000,
                "default.api.timeout.ms", 10000));
    }

    private boolean ready() {
        try (Admin admin = admin()) {
            admin.describeCluster().nodes().get();
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private void runToCompletion(List<String> args) throws Exception {
        List<String> command = new java.util.ArrayList<>();
        command.add(JAVA);
        command.addAll(args);
        Process format = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
        if (format.waitFor() != 0) {
            throw new IllegalStateException("kafka storage format failed, see " + logFile);
        }
    }
}
