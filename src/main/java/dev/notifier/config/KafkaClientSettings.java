package dev.notifier.config;

import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;
import org.apache.camel.component.kafka.KafkaConfiguration;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;

/**
 * How every Kafka client of Notifier connects: the service's consumers (camel-kafka), its DLQ
 * producer, and the commands' own clients ({@code dlq replay}). One set of settings, read from
 * {@code notifier.kafka.*}, so TLS and SASL cannot be on for one and forgotten for another.
 *
 * @param securityProtocol PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL
 * @param saslMechanism    PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 (with a username and password), or any
 *                         other with {@code jaasConfig} written out
 */
public record KafkaClientSettings(String brokers, String securityProtocol, String saslMechanism, String username,
                                  String password, String jaasConfig, String truststore, String truststorePassword,
                                  String keystore, String keystorePassword) {

    /** @param property a configuration key's value, empty when unset or blank */
    public static KafkaClientSettings from(Function<String, Optional<String>> property) {
        Function<String, String> value = key -> property.apply("notifier.kafka." + key).orElse(null);
        String protocol = Optional.ofNullable(value.apply("security-protocol")).orElse("PLAINTEXT")
                .strip().toUpperCase(Locale.ROOT);
        if (!protocol.matches("PLAINTEXT|SSL|SASL_PLAINTEXT|SASL_SSL")) {
            throw new IllegalArgumentException("NOTIFIER_KAFKA_SECURITY_PROTOCOL must be PLAINTEXT, SSL, SASL_PLAINTEXT"
                    + " or SASL_SSL, not '" + protocol + "'");
        }
        KafkaClientSettings settings = new KafkaClientSettings(property.apply("notifier.kafka.brokers").orElse("localhost:9092"),
                protocol, Optional.ofNullable(value.apply("sasl-mechanism")).orElse("PLAIN"), value.apply("sasl-username"),
                value.apply("sasl-password"), value.apply("sasl-jaas-config"), value.apply("ssl-truststore"),
                value.apply("ssl-truststore-password"), value.apply("ssl-keystore"), value.apply("ssl-keystore-password"));
        if (settings.usesSasl() && settings.jaasConfig() == null && settings.username() == null) {
            throw new IllegalArgumentException("Kafka security protocol " + protocol + " needs NOTIFIER_KAFKA_SASL_USERNAME"
                    + " and NOTIFIER_KAFKA_SASL_PASSWORD (or NOTIFIER_KAFKA_SASL_JAAS_CONFIG)");
        }
        return settings;
    }

    boolean usesSasl() {
        return securityProtocol.startsWith("SASL_");
    }

    boolean usesTls() {
        return securityProtocol.endsWith("SSL");
    }

    /**
     * Client metrics push (KIP-714) is off for every client Notifier creates: it would ship the client's
     * metrics to the brokers' operator, and the service jar leaves out the OpenTelemetry and protobuf
     * classes (shaded inside kafka-clients, 2.8 MB) that it needs.
     */
    public static final String METRICS_PUSH = CommonClientConfigs.ENABLE_METRICS_PUSH_CONFIG;

    /** For a KafkaConsumer, KafkaProducer or Admin client of the commands and the DLQ publisher. */
    public Properties clientProperties() {
        Properties p = new Properties();
        p.put(METRICS_PUSH, "false");
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, brokers);
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, securityProtocol);
        if (usesSasl()) {
            p.put(SaslConfigs.SASL_MECHANISM, saslMechanism);
            p.put(SaslConfigs.SASL_JAAS_CONFIG, jaas());
        }
        if (usesTls()) {
            putIfSet(p, SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, truststore);
            putIfSet(p, SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, storeType(truststore));
            putIfSet(p, SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, truststorePassword);
            putIfSet(p, SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, keystore);
            putIfSet(p, SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, storeType(keystore));
            putIfSet(p, SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, keystorePassword);
        }
        return p;
    }

    /** The same settings on camel-kafka's component: every consumer and producer endpoint copies them. */
    public void applyTo(KafkaConfiguration camel) {
        camel.getAdditionalProperties().put(METRICS_PUSH, "false");
        camel.setBrokers(brokers);
        camel.setSecurityProtocol(securityProtocol);
        if (usesSasl()) {
            camel.setSaslMechanism(saslMechanism);
            camel.setSaslJaasConfig(jaas());
        }
        if (usesTls()) {
            camel.setSslTruststoreLocation(truststore);
            camel.setSslTruststorePassword(truststorePassword);
            if (truststore != null) {
                camel.setSslTruststoreType(storeType(truststore));
            }
            camel.setSslKeystoreLocation(keystore);
            camel.setSslKeystorePassword(keystorePassword);
            if (keystore != null) {
                camel.setSslKeystoreType(storeType(keystore));
            }
        }
    }

    /** The JAAS line for PLAIN and SCRAM from a username and password; quotes and backslashes escaped. */
    private String jaas() {
        if (jaasConfig != null) {
            return jaasConfig;
        }
        String module = saslMechanism.startsWith("SCRAM-") ? "org.apache.kafka.common.security.scram.ScramLoginModule"
                : "org.apache.kafka.common.security.plain.PlainLoginModule";
        return module + " required username=\"" + escape(username) + "\" password=\"" + escape(password) + "\";";
    }

    /** Kafka reads stores as JKS unless told: a .p12 or .pfx file is PKCS12, a .pem file PEM. */
    private static String storeType(String path) {
        if (path == null) {
            return null;
        }
        String name = path.toLowerCase(Locale.ROOT);
        return name.endsWith(".p12") || name.endsWith(".pfx") ? "PKCS12" : name.endsWith(".pem") ? "PEM" : "JKS";
    }

    private static String escape(String value) {
        return value == null ? "" : value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static void putIfSet(Properties p, String key, String value) {
        if (value != null) {
            p.put(key, value);
        }
    }

    /** Secrets stay out of logs and exception messages. */
    @Override
    public String toString() {
        return "KafkaClientSettings[brokers=" + brokers + ", securityProtocol=" + securityProtocol + "]";
    }
}
