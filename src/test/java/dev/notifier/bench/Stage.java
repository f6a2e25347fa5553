package dev.notifier.bench;

import static org.awaitility.Awaitility.await;

import dev.notifier.processes.KafkaBrokerProcess;
import dev.notifier.processes.NotifierInstance;
import dev.notifier.processes.ProcessKafka;
import dev.notifier.processes.StandardSinks;
import dev.notifier.support.TestDatabase;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * One measured stretch of the benchmark: a fresh database, topic and consumer group, the standard
 * sinks (Postfix's smtp-sink, nginx), and one instance of the packaged jar. Times are wall-clock milliseconds on this machine,
 * the clock the service stamps its rows with.
 */
final class Stage implements AutoCloseable {

    /**
     * Consumer threads, and so pgbench clients: the service's default (NOTIFIER_KAFKA_CONSUMERS), or
     * {@code -Dbench.consumers=N} to measure another.
     */
    static final int CONSUMERS = Integer.getInteger("bench.consumers", 3);
    private static final int PARTITIONS = 6;

    final TestDatabase db = new TestDatabase();
    final StandardSinks sinks = new StandardSinks();
    final String topic;
    private final KafkaBrokerProcess kafka;
    private final String group;
    private final Path logDir;
    private final Admin admin;
    private final SingleConnectionDataSource pollingConnection;
    private final JdbcTemplate polling;
    private NotifierInstance instance;
    private long launchedAt;

    Stage(KafkaBrokerProcess kafka, Path logDir) throws Exception {
        this.kafka = kafka;
        this.logDir = logDir;
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        topic = "bench-" + suffix;
        group = "notifier-bench-" + suffix;
        kafka.createTopic(topic, PARTITIONS);
        // a deployment's database is migrated already: start-up is measured without the first migration
        db.migrate();
        kafka.createTopic(topic + ".dlq", 1);
        admin = kafka.admin();
        pollingConnection = new SingleConnectionDataSource(db.url(), TestDatabase.USER, "", true);
        polling = new JdbcTemplate(pollingConnection);
    }

    /** Publishes as fast as the producer goes and waits for the broker to have it all. */
    void preload(List<ProducerRecord<byte[], byte[]>> records) throws Exception {
        ProcessKafka.publishPaced(kafka.bootstrap(), records, Integer.MAX_VALUE).get();
    }

    /** Starts the jar with its default configuration, pointed at this stage's parts; by bin/notifier when viaScript. */
    NotifierInstance launch(String name, boolean batch, List<String> jvmOptions, boolean viaScript) throws Exception {
        Map<String, String> env = NotifierInstance.wiredTo(kafka, topic, group, db.url(), TestDatabase.USER,
                sinks.smtpPort, sinks.pushUrl());
        env.put("NOTIFIER_KAFKA_CONSUMERS", String.valueOf(CONSUMERS));
        env.put("NOTIFIER_KAFKA_BATCH", String.valueOf(batch));
        // -Dbench.trace=1 (or 0.01): tracing on at that sampling ratio, exported to nginx (an OTLP/HTTP sink)
        String trace = System.getProperty("bench.trace", "").strip();
        if (!trace.isEmpty()) {
            env.put("OTEL_EXPORTER_OTLP_ENDPOINT", sinks.pushUrl().replace("/push", ""));
            env.put("OTEL_TRACES_SAMPLER", "parentbased_traceidratio");
            env.put("OTEL_TRACES_SAMPLER_ARG", trace);
        }
        instance = new NotifierInstance(name, logDir, env, new HashMap<>());
        if (viaScript) {
            instance.viaScript();
        }
        instance.jvmOptions(jvmOptions);
        launchedAt = System.currentTimeMillis();
        return instance.launch();
    }

    long launchedAt() {
        return launchedAt;
    }

    NotifierInstance instance() {
        return instance;
    }

    /** Polls until every published record's offset is committed; returns when that was first seen. */
    long awaitAllCommitted(Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(() -> {
            long end = ProcessKafka.endOffsets(admin, topic);
            return end > 0 && ProcessKafka.committedOffsets(admin, group, topic) == end;
        });
        return System.currentTimeMillis();
    }

    /**
     * Polls the counts PostgreSQL keeps itself (V5, exact at every commit) on one kept connection:
     * count(*) on a new connection each time (a backend started, then a scan of a table of 100,000
     * rows being updated) took PostgreSQL's CPU, on the measured machine, ten times a second.
     */
    void awaitSent(long notifications, Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(100)).until(
                () -> poll("SELECT coalesce(sum(n), 0) FROM notification_counts WHERE status = 'SENT'") >= notifications);
    }

    /** Polls (every 20 ms) until the first event is recorded. */
    void awaitFirstRecorded() {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                .until(() -> poll("SELECT coalesce(sum(n), 0) FROM inbox_counts") > 0);
    }

    /** On one connection kept for the stage: a new one per poll is a new PostgreSQL backend each time. */
    private long poll(String sql) {
        return polling.queryForObject(sql, Long.class);
    }

    /** When the first event was recorded: the service's own timestamp on its first inbox row. */
    long firstRecordedAt() {
        return millis("SELECT min(created_at) FROM inbox");
    }

    long lastRecordedAt() {
        return millis("SELECT max(created_at) FROM inbox");
    }

    long lastSentAt() {
        return millis("SELECT max(sent_at) FROM notifications");
    }

    private long millis(String sql) {
        return db.jdbc().queryForObject(sql, Timestamp.class).getTime();
    }

    @Override
    public void close() throws Exception {
        if (instance != null) {
            instance.stopGracefully();
        }
        admin.close();
        pollingConnection.destroy();
        sinks.close();
        db.close();
    }
}
