package dev.notifier.config;

import dev.notifier.event.EventParser;
import dev.notifier.event.InvalidEventException;
import dev.notifier.inbox.BatchIntake;
import dev.notifier.inbox.ChannelPlanner;
import dev.notifier.inbox.DeadLetterPublisher;
import dev.notifier.inbox.DedupWindow;
import dev.notifier.inbox.InboxPurge;
import dev.notifier.inbox.InboxRepository;
import dev.notifier.inbox.NotificationRows;
import dev.notifier.inbox.RollbackIsFailure;
import dev.notifier.retention.NotificationPurge;
import java.time.Duration;
import org.apache.camel.CamelContext;
import org.apache.camel.Processor;
import org.apache.camel.component.kafka.KafkaComponent;
import dev.notifier.inbox.IntakeTrace;
import dev.notifier.trace.Tracing;
import org.apache.camel.component.kafka.KafkaConstants;
import org.apache.camel.component.kafka.consumer.KafkaManualCommit;
import org.apache.camel.spi.Registry;

/** Intake's beans: reading a record, the inbox, the DLQ, the batch intake, and retention. The routes name them. */
final class IntakeBeans {

    /** Where the parsed event's inbox key waits for the idempotent consumer. */
    static final String EVENT_KEY = "eventKey";
    /** Why a record goes to the DLQ, when parsing says it must. */
    static final String DEAD_LETTER_REASON = DeadLetterPublisher.DEAD_LETTER_REASON;

    private final CamelContext context;
    private final ServiceProperties p;
    private final Database database;
    private final EventParser parser;
    private final NotificationRows rows;
    private final Shutdown shutdown;
    private final Registry registry;
    private final Tracing tracing;

    IntakeBeans(CamelContext context, ServiceProperties p, Database database, EventParser parser, NotificationRows rows,
                Shutdown shutdown, Tracing tracing) {
        this.context = context;
        this.p = p;
        this.database = database;
        this.parser = parser;
        this.rows = rows;
        this.shutdown = shutdown;
        this.registry = context.getRegistry();
        this.tracing = tracing;
    }

    void bind() {
        // the value as the event, its inbox key beside it; or why it can never be processed
        registry.bind("parseEvent", (Processor) exchange -> {
            dev.notifier.event.LogContext.clear();
            var span = IntakeTrace.start(exchange, tracing);
            try {
                byte[] value = exchange.getMessage().getBody(byte[].class);
                var event = parser.parse(value);
                // kept for a conflict's dead letter: the body is the event from here on
                exchange.setProperty(DeadLetterPublisher.RECORD_VALUE, value);
                exchange.getMessage().setBody(event);
                exchange.setProperty(EVENT_KEY, event.getEventIdText());
                dev.notifier.event.LogContext.enter(exchange, event.eventId(), null);
                dev.notifier.event.LogContext.trace(IntakeTrace.traceparent(exchange));
                span.setAttribute(Tracing.EVENT_ID, event.getEventIdText());
            } catch (InvalidEventException e) {
                exchange.setProperty(DEAD_LETTER_REASON, e.getMessage());
            }
        });
        // the record's offset, after its transaction or dead letter (camel-kafka's manual commit, async)
        registry.bind("commitOffset", (Processor) exchange -> exchange.getMessage()
                .getHeader(KafkaConstants.MANUAL_COMMIT, KafkaManualCommit.class).commit());
        registry.bind("inboxRepository", new InboxRepository(database.dataSource, database.transactions,
                parser.channels().addressFields()));
        registry.bind("recordEventOrFail", new RollbackIsFailure("direct:record-event"));
        registry.bind("recordBatchOrFail", new RollbackIsFailure("direct:record-batch"));
        registry.bind("batchIntake", new BatchIntake(parser, new ChannelPlanner(parser.channels()), rows, tracing));

        int purgeBatch = p.getInt("notifier.inbox.purge-batch-size", 1000);
        // validated before anything else is asked for: a bad value fails the start with its name
        dev.notifier.event.EventRules rules = p.eventRules();
        DedupWindow window = new DedupWindow(rules.maxPast(), rules.maxFuture());
        Duration inboxRetention = p.findDuration("notifier.inbox.retention").map(InboxPurge::requireSafeAge)
                .map(age -> window.requireCoveredBy(age, "notifier.inbox.retention")).orElse(null);
        registry.bind("inboxPurge", new InboxPurge(database.dataSource, purgeBatch, inboxRetention));
        Duration rowRetention = p.findDuration("notifier.retention.notifications").map(InboxPurge::requireSafeAge)
                .orElse(null);
        registry.bind("notificationPurge", new NotificationPurge(database.dataSource, database.transactions, purgeBatch,
                rowRetention));

        // one set of Kafka client settings (brokers, TLS, SASL) for the consumers and the DLQ producer
        KafkaClientSettings kafka = KafkaClientSettings.from(p::find);
        kafka.applyTo(context.getComponent("kafka", KafkaComponent.class).getConfiguration());
        registry.bind("deadLetterPublisher", shutdown.closeFirst(new DeadLetterPublisher(p.get("notifier.kafka.dlq-topic"),
                p.getInt("notifier.dlq.max-record-bytes", 1_000_000), kafka, tracing)));
    }
}
