package dev.notifier.support;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Real parts for one test: its own PostgreSQL database (DatabaseTestBase), Kafka topics and group, a GreenMail SMTP
 * server and a WireMock push gateway. The application is started by the test, so it can change
 * settings or peers first.
 */
public abstract class PipelineTestBase extends DatabaseTestBase {

    protected Peers peers;
    protected String topic;
    protected String dlqTopic;
    protected String group;
    protected RunningNotifier notifier;

    @BeforeEach
    void createParts() {
        peers = new Peers();
        topic = TestKafka.createTopic("events", 3);
        dlqTopic = topic + ".dlq";
        group = "notifier-" + topic;
    }

    @AfterEach
    void closeParts() throws Exception {
        if (notifier != null) {
            notifier.close();
        }
        peers.close();
    }

    protected Map<String, String> settings() {
        Map<String, String> settings = new HashMap<>(
                RunningNotifier.settings(db, topic, dlqTopic, group, peers.smtpPort(), peers.pushUrl()));
        settings.put("notifier.channel.line.url", peers.lineUrl());
        settings.put("notifier.channel.line.token", Peers.LINE_TOKEN);
        settings.put("notifier.channel.line.read-timeout-millis", "3000");
        if (batchIntake()) {
            settings.put("notifier.kafka.batch", "true");
            // small batches: a test's few hundred records make many batches, not one per consumer
            settings.put("notifier.kafka.batch-size", "25");
        }
        return settings;
    }

    /** Which intake runs: per event, or a poll at a time; the batch variants of a test override this. */
    protected boolean batchIntake() {
        return false;
    }

    protected RunningNotifier startNotifier() throws Exception {
        return startNotifier(settings());
    }

    protected RunningNotifier startNotifier(Map<String, String> settings) throws Exception {
        notifier = RunningNotifier.start(settings);
        return notifier;
    }

    protected int sentCount() {
        return db.count("SELECT count(*) FROM notifications WHERE status = 'SENT'");
    }

    /** Message-IDs of every email GreenMail accepted, duplicates included. */
    protected java.util.List<String> emailKeys() throws Exception {
        java.util.List<String> ids = new java.util.ArrayList<>();
        for (jakarta.mail.internet.MimeMessage m : peers.emails()) {
            ids.add(m.getMessageID());
        }
        return ids;
    }

    /** Idempotency-Keys of every push the gateway answered with 2xx. */
    protected java.util.List<String> acceptedPushKeys() {
        return peers.push.getAllServeEvents().stream()
                .filter(e -> e.getResponse().getStatus() / 100 == 2)
                .map(e -> e.getRequest().getHeader("Idempotency-Key"))
                .collect(Collectors.toList());
    }

    protected static Set<String> duplicates(java.util.List<String> keys) {
        Set<String> seen = new java.util.HashSet<>();
        return keys.stream().filter(k -> !seen.add(k)).collect(Collectors.toSet());
    }
}
