package dev.notifier.inbox;

import java.util.ArrayList;
import java.util.List;
import org.apache.camel.Message;
import org.apache.camel.component.kafka.KafkaConstants;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A record that can never be processed, on its way to the DLQ: its original key, value and headers
 * exactly as the producer sent them, why it can never be processed and where it was read. Built
 * from what camel-kafka put on the exchange, its own headers (topic, partition, offset, key) and the
 * record's raw headers, which never become exchange headers.
 *
 * @param source topic-partition@offset
 * @param traceparent the record's intake span (batch intake, while tracing is on), which its publishing
 *                    continues; null otherwise (per-event intake finds the span on the exchange)
 */
public record DeadLetter(String source, byte[] key, byte[] value, List<Header> headers, String reason, String traceparent) {

    /** The record a consumed Kafka message holds, with the reason it is dead-lettered. */
    public static DeadLetter of(Message record, String reason) {
        return of(record, record.getBody(byte[].class), reason);
    }

    /** The same, with the record's value kept aside (the body is no longer the record's bytes). */
    public static DeadLetter of(Message record, byte[] value, String reason) {
        String source = record.getHeader(KafkaConstants.TOPIC) + "-" + record.getHeader(KafkaConstants.PARTITION)
                + "@" + record.getHeader(KafkaConstants.OFFSET);
        Headers raw = record.getHeader(KafkaConstants.HEADERS, Headers.class);
        List<Header> headers = new ArrayList<>();
        if (raw != null) {
            raw.forEach(headers::add);
        }
        return new DeadLetter(source, bytes(record.getHeader(KafkaConstants.KEY)), value,
                List.copyOf(headers), reason, null);
    }

    /** This letter, published within the trace of the record's intake span. */
    public DeadLetter tracedBy(String intakeTraceparent) {
        return new DeadLetter(source, key, value, headers, reason, intakeTraceparent);
    }

    private static byte[] bytes(Object key) {
        return key instanceof byte[] raw ? raw : key == null ? null : key.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
