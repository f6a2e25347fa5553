package dev.notifier.config;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.notifier.delivery.DeliveryFailures;
import dev.notifier.delivery.DeliveryLedger;
import dev.notifier.delivery.FastPath;
import dev.notifier.delivery.LocalizedText;
import dev.notifier.delivery.DeliverySchedule;
import dev.notifier.delivery.email.EmailComposer;
import dev.notifier.delivery.email.SmtpSender;
import dev.notifier.delivery.email.SmtpSettings;
import dev.notifier.delivery.push.PushComposer;
import dev.notifier.delivery.push.PushResponses;
import dev.notifier.event.EventParser;
import dev.notifier.event.EventRules;
import dev.notifier.event.InvalidEventException;
import dev.notifier.inbox.BatchIntake;
import dev.notifier.inbox.ChannelPlanner;
import dev.notifier.inbox.DeadLetterPublisher;
import dev.notifier.inbox.InboxPurge;
import dev.notifier.inbox.InboxRepository;
import dev.notifier.inbox.RollbackIsFailure;
import dev.notifier.inbox.SchemaGuard;
import dev.notifier.retention.NotificationPurge;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import javax.sql.DataSource;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelContextAware;
import org.apache.camel.PropertyInject;
import org.apache.camel.component.kafka.KafkaComponent;
import org.apache.camel.component.mail.MailComponent;
import org.apache.camel.spring.spi.SpringTransactionPolicy;
import org.apache.camel.support.service.ServiceSupport;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Binds the beans the YAML routes refer to by name. Every value comes from application.properties. */
public class NotifierConfiguration implements CamelConfiguration, CamelContextAware {

    @PropertyInject("notifier.db.url")
    private String dbUrl;
    @PropertyInject(value = "notifier.db.user", defaultValue = "")
    private String dbUser;
    @PropertyInject(value = "notifier.db.password", defaultValue = "")
    private String dbPassword;
    @PropertyInject(value = "notifier.db.pool-size", defaultValue = "10")
    private int dbPoolSize;
    @PropertyInject(value = "notifier.event.max-bytes", defaultValue = "65536")
    private int maxEventBytes;
    @PropertyInject("notifier.mail.from")
    private String mailFrom;
    @PropertyInject(value = "notifier.text.timezone", defaultValue = "Asia/Bangkok")
    private String textTimezone;
    @PropertyInject(value = "notifier.delivery.retry-base-millis", defaultValue = "1000")
    private long retryBaseMillis;
    @PropertyInject(value = "notifier.delivery.retry-max-millis", defaultValue = "300000")
    private long retryMaxMillis;
    @PropertyInject(value = "notifier.delivery.lease-seconds", defaultValue = "60")
    private long leaseSeconds;
    @PropertyInject(value = "notifier.delivery.max-attempts", defaultValue = "50")
    private int maxAttempts;
    @PropertyInject(value = "notifier.delivery.max-age", defaultValue = "24h")
    private String maxAge;
    @PropertyInject(value = "notifier.smtp.utf8", defaultValue = "false")
    private boolean smtpUtf8;
    @PropertyInject(value = "notifier.event.max-past", defaultValue = "365d")
    private String eventMaxPast;
    @PropertyInject(value = "notifier.event.max-future", defaultValue = "1d")
    private String eventMaxFuture;
    @PropertyInject(value = "notifier.delivery.ledger-batch-size", defaultValue = "200")
    private int ledgerBatchSize;
    @PropertyInject(value = "notifier.delivery.fast-path-millis", defaultValue = "5000")
    private long fastPathMillis;
    @PropertyInject(value = "notifier.smtp.user", defaultValue = "")
    private String smtpUser;
    @PropertyInject(value = "notifier.smtp.password", defaultValue = "")
    private String smtpPassword;
    @PropertyInject(value = "notifier.push.token", defaultValue = "")
    private String pushToken;
    @PropertyInject(value = "notifier.inbox.retention", defaultValue = "")
    private String inboxRetention;
    @PropertyInject(value = "notifier.inbox.purge-batch-size", defaultValue = "1000")
    private int inboxPurgeBatchSize;

    @PropertyInject(value = "notifier.smtp.tls", defaultValue = "none")
    private String smtpTls;
    @PropertyInject(value = "notifier.smtp.truststore", defaultValue = "")
    private String smtpTruststore;
    @PropertyInject(value = "notifier.smtp.truststore-password", defaultValue = "")
    private String smtpTruststorePassword;
    @PropertyInject(value = "notifier.smtp.timeout-millis", defaultValue = "10000")
    private long smtpTimeoutMillis;
    @PropertyInject(value = "notifier.smtp.connections", defaultValue = "16")
    private int smtpConnections;
    @PropertyInject(value = "notifier.smtp.messages-per-connection", defaultValue = "100")
    private int smtpMessagesPerConnection;
    @PropertyInject(value = "notifier.smtp.idle-millis", defaultValue = "10000")
    private long smtpIdleMillis;

    @PropertyInject("notifier.kafka.dlq-topic")
    private String dlqTopic;
    @PropertyInject(value = "notifier.dlq.max-record-bytes", defaultValue = "1000000")
    private int dlqMaxRecordBytes;
    @PropertyInject(value = "notifier.retention.notifications", defaultValue = "")
    private String notificationRetention;

    private HikariDataSource dataSource;
    private SmtpSender smtpSender;
    private DeadLetterPublisher deadLetterPublisher;
    private CamelContext context;
    private TransactionTemplate transactionTemplate;
    private DeliveryLedger deliveryLedger;

    /** The pool, migrated and checked before any route can touch it. */
    @BindToRegistry("dataSource")
    public synchronized DataSource dataSource() throws Exception {
        if (dataSource == null) {
            HikariConfig config = new HikariConfig();
            config.setPoolName("notifier");
            config.setJdbcUrl(dbUrl);
            config.setUsername(blankToNull(dbUser));
            config.setPassword(blankToNull(dbPassword));
            config.setMaximumPoolSize(dbPoolSize);
            // fail fast on a dead database instead of parking consumer threads for 30 s
            config.setConnectionTimeout(5_000);
            config.setInitializationFailTimeout(-1);
            HikariDataSource created = new HikariDataSource(config);
            try {
                Flyway.configure().dataSource(created).locations("classpath:db/migration").load().migrate();
                SchemaGuard.check(created);
            } catch (Exception | Error e) {
                created.close();
                throw e;
            }
            dataSource = created;
        }
        return dataSource;
    }

    @BindToRegistry("transactionTemplate")
    public synchronized TransactionTemplate transactionTemplate() throws Exception {
        if (transactionTemplate == null) {
            transactionTemplate = new TransactionTemplate(new JdbcTransactionManager(dataSource()));
        }
        return transactionTemplate;
    }

    /** What {@code transacted: {ref: required}} means in the routes. */
    @BindToRegistry("required")
    public SpringTransactionPolicy required() throws Exception {
        return new SpringTransactionPolicy(transactionTemplate());
    }

    /** The inbox: built on the route's own TransactionTemplate so its insert joins that transaction. */
    @BindToRegistry("inboxRepository")
    public InboxRepository inboxRepository() throws Exception {
        return new InboxRepository(dataSource(), transactionTemplate());
    }

    /** Runs direct:record-event, the inbox transaction; a silent rollback comes back as a failure. */
    @BindToRegistry("recordEventOrFail")
    public RollbackIsFailure recordEventOrFail() {
        return new RollbackIsFailure("direct:record-event");
    }

    /** Inbox retention for the purge-inbox route; a malformed or too short retention fails the start. */
    @BindToRegistry("inboxPurge")
    public InboxPurge inboxPurge() throws Exception {
        // validated before dataSource() is asked for: a bad value must not leave a pool open
        Duration retention = blankToNull(inboxRetention) == null ? null
                : InboxPurge.requireSafeAge(Durations.parse(inboxRetention));
        return new InboxPurge(dataSource(), inboxPurgeBatchSize, retention);
    }

    /** Runs direct:record-batch, the batch intake's inbox transaction, with the same guard. */
    @BindToRegistry("recordBatchOrFail")
    public RollbackIsFailure recordBatchOrFail() {
        return new RollbackIsFailure("direct:record-batch");
    }

    /** Deletes final notifications older than notifier.retention.notifications; validated like the inbox's. */
    @BindToRegistry("notificationPurge")
    public NotificationPurge notificationPurge() throws Exception {
        Duration retention = blankToNull(notificationRetention) == null ? null
                : InboxPurge.requireSafeAge(Durations.parse(notificationRetention));
        return new NotificationPurge(dataSource(), transactionTemplate(), inboxPurgeBatchSize, retention);
    }

    /** The DLQ's producer, with the same Kafka client settings as the consumers. */
    @BindToRegistry("deadLetterPublisher")
    public synchronized DeadLetterPublisher deadLetterPublisher() {
        if (deadLetterPublisher == null) {
            deadLetterPublisher = new DeadLetterPublisher(dlqTopic, dlqMaxRecordBytes, kafkaClientSettings());
        }
        return deadLetterPublisher;
    }

    @BindToRegistry("batchIntake")
    public BatchIntake batchIntake() {
        return new BatchIntake(eventParser(), channelPlanner());
    }

    @BindToRegistry("eventParser")
    public EventParser eventParser() {
        return new EventParser(new EventRules(maxEventBytes, smtpUtf8, Durations.parse(eventMaxPast),
                Durations.parse(eventMaxFuture), Clock.systemUTC()));
    }

    @BindToRegistry("channelPlanner")
    public ChannelPlanner channelPlanner() {
        return new ChannelPlanner(eventParser(), Duration.ofMillis(fastPathMillis));
    }

    @BindToRegistry("deliverySchedule")
    public DeliverySchedule deliverySchedule() {
        return new DeliverySchedule(Duration.ofMillis(retryBaseMillis), Duration.ofMillis(retryMaxMillis),
                Duration.ofSeconds(leaseSeconds), maxAttempts, Durations.parse(maxAge));
    }

    /** Claims and outcomes, group-committed; closed after the routes stop, before the pool. */
    @BindToRegistry("deliveryLedger")
    public synchronized DeliveryLedger deliveryLedger() throws Exception {
        if (deliveryLedger == null) {
            deliveryLedger = new DeliveryLedger(dataSource(), transactionTemplate(), ledgerBatchSize);
        }
        return deliveryLedger;
    }

    @BindToRegistry("deliveryFailures")
    public DeliveryFailures deliveryFailures() {
        return new DeliveryFailures();
    }

    @BindToRegistry("emailComposer")
    public EmailComposer emailComposer() {
        try {
            return new EmailComposer(mailFrom, localizedText(), smtpUtf8);
        } catch (InvalidEventException e) {
            throw new IllegalStateException("NOTIFIER_MAIL_FROM (notifier.mail.from): " + e.getMessage(), e);
        }
    }

    /** camel-mail's sender for the smtp: endpoint: reused connections, the TLS mode, the envelope check. */
    @BindToRegistry("smtpSender")
    public synchronized SmtpSender smtpSender() {
        if (smtpSender == null) {
            smtpSender = new SmtpSender(new SmtpSettings(SmtpSettings.Tls.parse(smtpTls), blankToNull(smtpTruststore) == null
                    ? null : Path.of(smtpTruststore), blankToNull(smtpTruststorePassword), smtpUtf8,
                    Duration.ofMillis(smtpTimeoutMillis), smtpConnections, smtpMessagesPerConnection,
                    Duration.ofMillis(smtpIdleMillis)));
        }
        return smtpSender;
    }

    @BindToRegistry("pushComposer")
    public PushComposer pushComposer() {
        return new PushComposer(localizedText(), blankToNull(pushToken));
    }

    @BindToRegistry("pushResponses")
    public PushResponses pushResponses() {
        return new PushResponses();
    }

    private LocalizedText localizedText() {
        return new LocalizedText(ZoneId.of(textTimezone));
    }

    @Override
    public void setCamelContext(CamelContext camelContext) {
        this.context = camelContext;
    }

    @Override
    public CamelContext getCamelContext() {
        return context;
    }

    private KafkaClientSettings kafkaClientSettings() {
        return KafkaClientSettings.from(key -> context.getPropertiesComponent().resolveProperty(key)
                .filter(value -> !value.isBlank()));
    }

    @Override
    public void configure(CamelContext camelContext) throws Exception {
        // one set of Kafka client settings (brokers, TLS, SASL) for the consumers and the DLQ producer
        kafkaClientSettings().applyTo(camelContext.getComponent("kafka", KafkaComponent.class).getConfiguration());
        // SMTP credentials live on the component, not in an endpoint URI that could be logged;
        // without a user camel-mail must not attempt AUTH at all
        if (blankToNull(smtpUser) != null) {
            MailComponent smtp = camelContext.getComponent("smtp", MailComponent.class);
            smtp.getConfiguration().setUsername(smtpUser);
            smtp.getConfiguration().setPassword(smtpPassword);
        }
        camelContext.getRegistry().bind("fastPath", new FastPath(camelContext));
        // close the pool only after every route has stopped and finished its in-flight work
        camelContext.addService(new ServiceSupport() {
            @Override
            protected void doStop() {
                if (deliveryLedger != null) {
                    deliveryLedger.close();
                }
                if (smtpSender != null) {
                    smtpSender.close();
                }
                if (deadLetterPublisher != null) {
                    deadLetterPublisher.close();
                }
                if (dataSource != null) {
                    dataSource.close();
                }
            }
        }, true, true);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
