package dev.notifier.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A single Apache Kafka node in this JVM: KRaft, broker and controller combined, its log in a
 * directory of its own. The directory is formatted first, as {@code kafka-storage.sh format} would:
 * a KRaft server refuses to start on a log directory without {@code meta.properties}.
 */
final class EmbeddedKafka implements AutoCloseable {

    private static final int NODE_ID = 1;
    private static final String CONTROLLER = "CONTROLLER";

    private final KafkaRaftServer server;
    private final int port;

    private EmbeddedKafka(KafkaRaftServer server, int port) {
        this.server = server;
        this.port = port;
    }

    /** Formats {@code logDir} and starts the node; clients connect to {@code 127.0.0.1:port}. */
    static EmbeddedKafka start(Path logDir, int port) throws Exception {
        Files.createDirectories(logDir);
        int controllerPort = freePort();
        KafkaConfig config = new KafkaConfig(settings(logDir.toString(), port, controllerPort), false);
        new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                .setNodeId(NODE_ID)
                .setClusterId(Uuid.randomUuid().toString())
                .setDirectories(List.of(logDir.toString()))
                .setMetadataLogDirectory(logDir.toString())
                .setControllerListenerName(CONTROLLER)
                .setReleaseVersion(MetadataVersion.latestProduction())
                .run();
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        try {
            server.startup();
        } catch (RuntimeException | Error e) {
            server.shutdown();
            server.awaitShutdown();
            throw e;
        }
        return new EmbeddedKafka(server, port);
    }

    private static Map<String, Object> settings(String logDir, int port, int controllerPort) {
        Map<String, Object> p = new HashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + "," + CONTROLLER + "://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER + ":PLAINTEXT");
        p.put("controller.listener.names", CONTROLLER);
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", logDir);
        // one node: every internal topic with one replica, or its coordinator never becomes available
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        // a consumer group forms at once instead of waiting 3 s for more members
        p.put("group.initial.rebalance.delay.ms", "0");
        // a demo's load: a small footprint on a shared machine
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
        return p;
    }

    String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** The controller listens on a port of its own that nobody else needs to know. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }
}
