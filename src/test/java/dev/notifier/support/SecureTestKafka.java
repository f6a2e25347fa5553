package dev.notifier.support;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A second real Kafka broker whose client listener speaks SASL_SSL only (SASL/PLAIN over TLS with
 * {@link TestCertificates}), for the test that Notifier and its commands connect with one set of
 * settings. Started by the test that needs it and closed after it: it takes several seconds.
 */
public final class SecureTestKafka implements AutoCloseable {

    public static final String USER = "notifier";
    public static final String PASSWORD = "kafka-secret";
    private static final String ADMIN = "admin";
    private static final String ADMIN_PASSWORD = "admin-secret";

    private final KafkaClusterTestKit kit;

    public SecureTestKafka() throws Exception {
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + ADMIN
                + "\" password=\"" + ADMIN_PASSWORD + "\" user_" + ADMIN + "=\"" + ADMIN_PASSWORD + "\" user_" + USER
                + "=\"" + PASSWORD + "\";";
        KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build());
        Map<String, String> config = new HashMap<>();
        // the kit only knows PLAINTEXT listeners; its EXTERNAL one is remapped (it keeps settings it is given)
        config.put("listener.security.protocol.map", "EXTERNAL:SASL_SSL,CONTROLLER:PLAINTEXT");
        config.put("sasl.enabled.mechanisms", "PLAIN");
        config.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        config.put("listener.name.external.plain.sasl.jaas.config", jaas);
        config.put("ssl.keystore.type", "PKCS12");
        config.put("ssl.keystore.location", TestCertificates.serverKeystore().toString());
        config.put("ssl.keystore.password", TestCertificates.PASSWORD);
        config.put("ssl.key.password", TestCertificates.PASSWORD);
        config.put("ssl.truststore.type", "PKCS12");
        config.put("ssl.truststore.location", TestCertificates.truststore().toString());
        config.put("ssl.truststore.password", TestCertificates.PASSWORD);
        config.put("offsets.topic.replication.factor", "1");
        config.put("offsets.topic.num.partitions", "1");
        config.put("transaction.state.log.replication.factor", "1");
        config.put("transaction.state.log.min.isr", "1");
        config.put("share.coordinator.state.topic.replication.factor", "1");
        config.put("share.coordinator.state.topic.min.isr", "1");
        config.put("group.initial.rebalance.delay.ms", "0");
        config.forEach(builder::setConfigProp);
        kit = builder.build();
        kit.format();
        kit.startup();
        kit.waitForReadyBrokers();
    }

    public String bootstrapServers() {
        return kit.bootstrapServers();
    }

    /** Notifier's settings for this broker: what an operator would set through NOTIFIER_KAFKA_*. */
    public Map<String, String> notifierSettings() {
        return Map.of("notifier.kafka.brokers", bootstrapServers(),
                "notifier.kafka.security-protocol", "SASL_SSL",
                "notifier.kafka.sasl-mechanism", "PLAIN",
                "notifier.kafka.sasl-username", USER,
                "notifier.kafka.sasl-password", PASSWORD,
                "notifier.kafka.ssl-truststore", TestCertificates.truststore().toString(),
                "notifier.kafka.ssl-truststore-password", TestCertificates.PASSWORD);
    }

    /** Client properties for the test's own producer, consumer and admin (as the admin user). */
    public Properties clientProperties() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers());
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", "PLAIN");
        p.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                + ADMIN + "\" password=\"" + ADMIN_PASSWORD + "\";");
        p.put("ssl.truststore.type", "PKCS12");
        p.put("ssl.truststore.location", TestCertificates.truststore().toString());
        p.put("ssl.truststore.password", TestCertificates.PASSWORD);
        return p;
    }

    public void createTopics(String... names) throws Exception {
        try (Admin admin = Admin.create(clientProperties())) {
            admin.createTopics(java.util.Arrays.stream(names).map(n -> new NewTopic(n, 1, (short) 1)).toList()).all().get();
        }
    }

    @Override
    public void close() throws Exception {
        kit.close();
    }

    public static List<String> topicsOf(SecureTestKafka kafka) throws Exception {
        try (Admin admin = Admin.create(kafka.clientProperties())) {
            return List.copyOf(admin.listTopics().names().get());
        }
    }
}
