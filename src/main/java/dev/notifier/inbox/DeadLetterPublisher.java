package dev.notifier.inbox;

import dev.notifier.config.KafkaClientSettings;
import dev.notifier.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.camel.Body;
import org.apache.camel.Exchange;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Publishes dead letters to the DLQ topic, each acknowledged before the caller commits the record's
 * offset. A Kafka producer of its own rather than a {@code kafka:} endpoint: camel-kafka builds a
 * record's headers from exchange headers, filtered by name and converted by type, so it cannot send
 * the original headers byte for byte, and some names it reads as instructions ({@code kafka.KEY},
 * {@code kafka.OVERRIDE_TOPIC}) would let a record's own headers choose where it goes.
 *
 * <p>Every record must be able to leave its partition: one that cannot be published holds back every
 * event behind it. So the producer's limit is explicit ({@code notifier.dlq.max-record-bytes}, set at
 * or below the DLQ topic's {@code max.message.bytes}), a dead letter larger than that is cut to fit
 * with a {@code notifier-truncated} header saying what was cut ({@link DeadLetterRecords}), and if the
 * topic refuses even that, only the reason and the source go. A broker that is down is another
 * matter: the publish fails and the record is retried, never skipped.
 */
public class DeadLetterPublisher implements AutoCloseable {

    /** Exchange property: the record's value as it came, kept by parsing for {@link #conflictLetterFor}. */
    public static final String RECORD_VALUE = "recordValue";
    /** Why the record in the exchange can never be processed (set by the parse): it goes to the DLQ. */
    public static final String DEAD_LETTER_REASON = "deadLetterReason";
    private final String topic;
    private final int maxRecordBytes;
    private final KafkaClientSettings kafka;
    private final Tracing tracing;
    private Producer<byte[], byte[]> producer;

    public DeadLetterPublisher(String topic, int maxRecordBytes, KafkaClientSettings kafka) {
        this(topic, maxRecordBytes, kafka, Tracing.off());
    }

    public DeadLetterPublisher(String topic, int maxRecordBytes, KafkaClientSettings kafka, Tracing tracing) {
        if (maxRecordBytes < DeadLetterRecords.MINIMUM_RECORD_BYTES) {
            throw new IllegalArgumentException("notifier.dlq.max-record-bytes must be at least "
                    + DeadLetterRecords.MINIMUM_RECORD_BYTES);
        }
        this.topic = topic;
        this.maxRecordBytes = maxRecordBytes;
        this.kafka = kafka;
        this.tracing = tracing;
    }

    /** The dead letter of the record an exchange of consume-events holds, with the reason parsing gave. */
    public DeadLetter letterFor(Exchange exchange) {
        return DeadLetter.of(exchange.getMessage(), exchange.getProperty(DEAD_LETTER_REASON, String.class));
    }

    /** The dead letter of a record that repeats an eventId with other content: its value as it came. */
    public DeadLetter conflictLetterFor(Exchange exchange) {
        return DeadLetter.of(exchange.getMessage(), exchange.getProperty(RECORD_VALUE, byte[].class),
                exchange.getProperty(InboxRepository.CONFLICT, String.class));
    }

    /** Publishes the letter, in a span under the record's intake while tracing is on. */
    public void publish(@Body DeadLetter letter, Exchange exchange) throws Exception {
        Span span = tracing.deadLetter(exchange == null ? null : exchange.getProperty(IntakeTrace.SPAN, Span.class),
                letter.traceparent());
        try {
            send(letter);
        } catch (Exception e) {
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
            throw e;
        } finally {
            span.end();
        }
    }

    private void send(DeadLetter letter) throws Exception {
        try {
            producer().send(DeadLetterRecords.fitting(topic, letter, maxRecordBytes)).get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof RecordTooLargeException)) {
                throw e;
            }
            // the topic's own limit is below notifier.dlq.max-record-bytes: the reason alone, rather than nothing
            producer().send(DeadLetterRecords.reasonOnly(topic, letter, e.getCause().getMessage())).get();
        }
    }

    private synchronized Producer<byte[], byte[]> producer() {
        if (producer == null) {
            Properties p = kafka.clientProperties();
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(maxRecordBytes));
            p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
            // a broker that is away fails the publish in bounded time; the intake retries it
            p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
            p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
            p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
            p.put(ProducerConfig.CLIENT_ID_CONFIG, "notifier-dlq");
            producer = new KafkaProducer<>(p);
        }
        return producer;
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(10));
            producer = null;
        }
    }
}
