package dev.notifier.support;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.builder.AdviceWith;
import org.apache.camel.builder.AdviceWithRouteBuilder;
import org.apache.camel.component.kafka.KafkaConstants;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.support.DefaultExchange;
import org.apache.camel.util.function.ThrowingConsumer;

/**
 * The real application ({@link RunningNotifier}: routes, beans, a real database) with its edges advised away: intake
 * from {@code direct:events} instead of Kafka, and {@code mock:dlq}, {@code mock:smtp},
 * {@code mock:push}, {@code mock:line} instead of the DLQ topic, the SMTP server, the push gateway and LINE. Routes stay
 * stopped until {@link #startRoutes()}, so a test can add advice of its own first.
 */
public final class AdvisedNotifier implements AutoCloseable {

    public static final String EVENTS = "direct:events";
    public static final String EVENT_BATCHES = "direct:event-batches";
    public static final String TOPIC = "events";

    private final RunningNotifier running;

    private AdvisedNotifier(RunningNotifier running) {
        this.running = running;
    }

    /** Settings for a run on {@code db}; nothing points at a live Kafka, SMTP or HTTP peer. */
    public static Map<String, String> settings(TestDatabase db) {
        Map<String, String> p = new HashMap<>();
        // the routes are advised before anything may consume or send
        p.put("camel.main.auto-startup", "false");
        p.put("notifier.db.url", db.url());
        p.put("notifier.db.user", TestDatabase.USER);
        // the DLQ producer is advised away before its first message, so no Kafka client is ever made
        p.put("camel.component.kafka.lazy-start-producer", "true");
        p.put("notifier.kafka.brokers", "127.0.0.1:1");
        p.put("notifier.kafka.topic", TOPIC);
        p.put("notifier.kafka.dlq-topic", TOPIC + ".dlq");
        p.put("notifier.kafka.consumers", "1");
        p.put("notifier.kafka.redeliveries", "0");
        p.put("notifier.smtp.host", "127.0.0.1");
        p.put("notifier.smtp.port", "1");
        p.put("notifier.channel.push.url", "http://127.0.0.1:1/push");
        p.put("notifier.channel.line.url", "http://127.0.0.1:1/line");
        p.put("notifier.delivery.poll-millis", "100");
        p.put("notifier.delivery.retry-base-millis", "100");
        p.put("notifier.delivery.retry-max-millis", "1000");
        p.put("notifier.http.port", "0");
        return p;
    }

    public static AdvisedNotifier start(TestDatabase db) throws Exception {
        return start(settings(db));
    }

    public static AdvisedNotifier start(Map<String, String> settings) throws Exception {
        AdvisedNotifier notifier = new AdvisedNotifier(RunningNotifier.start(settings));
        try {
            notifier.advise("consume-events", a -> a.replaceFromWith(EVENTS));
            notifier.advise("consume-events-batch", a -> a.replaceFromWith(EVENT_BATCHES));
            notifier.advise("dead-letter", a -> a.weaveById("publish-dead-letter").replace().to("mock:dlq"));
            notifier.advise("email-primary", a -> a.weaveById("smtp").replace().to("mock:smtp"));
            notifier.advise("push-primary", a -> a.weaveById("push-primary-request").replace().to("mock:push"));
            notifier.advise("send-line", a -> a.weaveById("send-line-request").replace().to("mock:line"));
            notifier.push().whenAnyExchangeReceived(e -> answer(e, 200, "{\"ok\":true}"));
            notifier.context().getEndpoint("mock:line", MockEndpoint.class)
                    .whenAnyExchangeReceived(e -> answer(e, 200, "{\"sentMessages\":[]}"));
        } catch (Exception | Error e) {
            notifier.close();
            throw e;
        }
        return notifier;
    }

    public AdvisedNotifier advise(String routeId, ThrowingConsumer<AdviceWithRouteBuilder, Exception> advice)
            throws Exception {
        AdviceWith.adviceWith(context(), routeId, advice);
        return this;
    }

    public AdvisedNotifier startRoutes() throws Exception {
        context().getRouteController().startAllRoutes();
        return this;
    }

    /** Sends one "Kafka record" through consume-events, the way the Kafka consumer would. */
    public Exchange send(String value, long offset, RecordingCommit commit) {
        return send(value.getBytes(StandardCharsets.UTF_8), offset, commit);
    }

    public Exchange send(byte[] value, long offset, RecordingCommit commit) {
        return context().createProducerTemplate().send(EVENTS,
                exchange -> new PolledRecord(0, offset, value, commit).copyTo(exchange.getMessage()));
    }

    /** As {@link #send(byte[], long, RecordingCommit)}, saying whether it is its partition's last record of the poll. */
    public Exchange send(String value, long offset, RecordingCommit commit, boolean lastOfPoll) {
        return context().createProducerTemplate().send(EVENTS, exchange -> {
            new PolledRecord(0, offset, value, commit).copyTo(exchange.getMessage());
            exchange.getMessage().setHeader(KafkaConstants.LAST_RECORD_BEFORE_COMMIT, lastOfPoll);
        });
    }

    /** Sends one poll through consume-events-batch the way the batching consumer would: one exchange per record. */
    public Exchange sendBatch(List<PolledRecord> records) {
        List<Exchange> exchanges = new ArrayList<>();
        for (PolledRecord record : records) {
            Exchange exchange = new DefaultExchange(context());
            record.copyTo(exchange.getMessage());
            exchanges.add(exchange);
        }
        return context().createProducerTemplate().send(EVENT_BATCHES, exchange -> exchange.getMessage().setBody(exchanges));
    }

    /** A Kafka record as camel-kafka's consumer puts it on an exchange, with the offset commit to call. */
    public record PolledRecord(int partition, long offset, byte[] value, RecordingCommit commit) {

        public PolledRecord(int partition, long offset, String value, RecordingCommit commit) {
            this(partition, offset, value.getBytes(StandardCharsets.UTF_8), commit);
        }

        void copyTo(Message message) {
            message.setHeader(KafkaConstants.TOPIC, TOPIC);
            message.setHeader(KafkaConstants.PARTITION, partition);
            message.setHeader(KafkaConstants.OFFSET, offset);
            message.setHeader(KafkaConstants.MANUAL_COMMIT, commit);
            message.setBody(value);
        }
    }

    /** What the push gateway answers, as camel-http would leave it on the exchange. */
    public static void answer(Exchange exchange, int status, String body) {
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, status);
        exchange.getMessage().setBody(body);
    }

    public CamelContext context() {
        return running.context();
    }

    public MockEndpoint dlq() {
        return mock("mock:dlq");
    }

    public MockEndpoint smtp() {
        return mock("mock:smtp");
    }

    public MockEndpoint push() {
        return mock("mock:push");
    }

    private MockEndpoint mock(String uri) {
        return context().getEndpoint(uri, MockEndpoint.class);
    }

    @Override
    public void close() {
        running.close();
    }
}
