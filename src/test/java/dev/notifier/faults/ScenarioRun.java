package dev.notifier.faults;

import static org.awaitility.Awaitility.await;

import dev.notifier.processes.KafkaBrokerProcess;
import dev.notifier.processes.NotifierInstance;
import dev.notifier.processes.ProcessKafka;
import dev.notifier.processes.RecordingSinks;
import dev.notifier.support.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.Admin;

/** One scenario's world: its own database, topics, group, sinks and service instances. */
final class ScenarioRun implements AutoCloseable {

    final String name;
    final KafkaBrokerProcess kafka;
    final TestDatabase db = new TestDatabase();
    final RecordingSinks sinks = new RecordingSinks();
    final String topic;
    final String dlqTopic;
    final String group;
    final Path logDir;
    final List<NotifierInstance> instances = new ArrayList<>();
    private final long started = System.nanoTime();
    private int launched;
    /** Every instance's SMTP timeout: each reply of the server may take this long. */
    static final Duration SMTP_TIMEOUT = Duration.ofMillis(2000);

    ScenarioRun(String name, KafkaBrokerProcess kafka) throws Exception {
        this.name = name;
        this.kafka = kafka;
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        topic = "events-" + suffix;
        dlqTopic = topic + ".dlq";
        group = "notifier-" + suffix;
        logDir = Path.of("target", "fault-logs", name);
        org.springframework.util.FileSystemUtils.deleteRecursively(logDir);
        kafka.createTopic(topic, 6);
        kafka.createTopic(dlqTopic, 1);
        sinks.pushVerdict(body -> body.contains(EventPlan.REJECTED_TOKEN) ? 400 : 200);
    }

    NotifierInstance launch() throws Exception {
        return launch(Map.of());
    }

    /** @param settings properties of this scenario's own, over the suite's */
    NotifierInstance launch(Map<String, String> settings) throws Exception {
        Map<String, String> env = NotifierInstance.wiredTo(kafka, topic, group, db.url(), TestDatabase.USER, sinks);
        env.put("NOTIFIER_KAFKA_CONSUMERS", "2");
        // -Dfaults.batch=true: every scenario against the batch intake
        env.put("NOTIFIER_KAFKA_BATCH", String.valueOf(FaultInjectionIT.BATCH));
        Map<String, String> props = new java.util.LinkedHashMap<>();
        props.put("notifier.delivery.poll-millis", "250");
        props.put("notifier.delivery.retry-base-millis", "250");
        props.put("notifier.delivery.retry-max-millis", "2000");
        // the longest send, every step at its timeout, must fit in a claim less twice its margin (2 s):
        // SMTP's connection wait + connect + 6 replies = 1 + 7 x 2 = 15 s < 16 s; HTTP's pool wait +
        // connect + read = 1 + 1 + 2 s
        props.put("notifier.delivery.lease-seconds", "20");
        props.put("camel.component.http.connection-request-timeout", "1000");
        props.put("notifier.channel.push.read-timeout-millis", "2000");
        props.put("notifier.channel.push.connect-timeout-millis", "1000");
        props.put("notifier.channel.line.read-timeout-millis", "2000");
        props.put("notifier.channel.line.connect-timeout-millis", "1000");
        props.put("notifier.smtp.timeout-millis", String.valueOf(SMTP_TIMEOUT.toMillis()));
        props.put("notifier.smtp.connection-wait-millis", "1000");
        props.put("camel.main.shutdown-timeout", "10");
        props.putAll(settings);
        NotifierInstance instance = new NotifierInstance("instance-" + (++launched), logDir, env, props).launch();
        instances.add(instance);
        return instance;
    }

    CompletableFuture<Void> publish(EventPlan plan, int perSecond) {
        return ProcessKafka.publishPaced(kafka.bootstrap(), plan.records, perSecond);
    }

    /** Every record's offset committed, nothing PENDING or SENDING: the run has come to rest. */
    void awaitSettled(EventPlan plan, Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
            try (Admin admin = kafka.admin()) {
                long end = ProcessKafka.endOffsets(admin, topic);
                return end == plan.records.size()
                        && ProcessKafka.committedOffsets(admin, group, topic) == end
                        && db.count("SELECT count(*) FROM notifications WHERE status IN ('PENDING', 'SENDING')") == 0
                        && db.count("SELECT count(*) FROM notifications") >= plan.expectedSent.size() + plan.expectedFailed.size();
            }
        });
    }

    Outcome outcome(EventPlan plan, String faults) throws Exception {
        List<byte[]> dlq = ProcessKafka.readValues(kafka.bootstrap(), dlqTopic, Duration.ofSeconds(3));
        return Outcome.compare(name, faults, plan, db, sinks, dlq, (System.nanoTime() - started) / 1e9);
    }

    @Override
    public void close() throws Exception {
        for (NotifierInstance instance : instances) {
            instance.close();
        }
        sinks.close();
        db.close();
    }
}
