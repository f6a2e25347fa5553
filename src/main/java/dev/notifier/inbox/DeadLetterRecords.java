package dev.notifier.inbox;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * The DLQ record of a dead letter: the original key, value and headers, plus {@code notifier-error}
 * (why) and {@code notifier-source} (topic-partition@offset), cut to a size limit when they do not
 * fit, with {@code notifier-truncated} saying what was cut: the original headers from the last when
 * they alone are too many, the value when it is too large, the key last; the reason and the source
 * always stay. An original header named like Notifier's own is namespaced ({@link DeadLetterHeaders}).
 */
final class DeadLetterRecords {

    static final String ERROR = DeadLetterHeaders.ERROR;
    static final String SOURCE = DeadLetterHeaders.SOURCE;
    static final String TRUNCATED = DeadLetterHeaders.TRUNCATED;
    static final int MINIMUM_RECORD_BYTES = 16 * 1024;
    /** Kafka's own framing of a batch of one record, generously: what the size estimate adds. */
    private static final int FRAMING_BYTES = 512;
    private static final int PER_HEADER_BYTES = 10;

    private DeadLetterRecords() {
    }

    static ProducerRecord<byte[], byte[]> fitting(String topic, DeadLetter letter, int maxRecordBytes) {
        List<Header> notifierHeaders = notifierHeaders(letter);
        byte[] key = letter.key();
        byte[] value = letter.value();
        List<Header> original = new ArrayList<>();
        letter.headers().forEach(h -> original.add(new RecordHeader(DeadLetterHeaders.escape(h.key()), h.value())));
        int budget = maxRecordBytes - FRAMING_BYTES - size(notifierHeaders) - 200;
        if (length(key) + length(value) + size(original) <= budget) {
            return record(topic, key, value, original, notifierHeaders);
        }
        List<String> cut = new ArrayList<>();
        // the value is what a producer would need to send again: when it alone is too large it is
        // cut and the headers kept; when the headers are, they go from the last, and the value stays
        if (length(key) + size(original) > budget) {
            int headerCount = original.size();
            while (!original.isEmpty() && length(key) + length(value) + size(original) > budget) {
                original.remove(original.size() - 1);
            }
            cut.add((headerCount - original.size()) + " of " + headerCount + " original headers dropped");
        }
        int valueRoom = Math.max(0, budget - length(key) - size(original));
        if (length(value) > valueRoom) {
            cut.add("value cut from " + length(value) + " to " + valueRoom + " bytes");
            value = Arrays.copyOf(value, valueRoom);
        }
        if (length(key) + length(value) + size(original) > budget) {
            int keyRoom = Math.max(0, budget - length(value) - size(original));
            cut.add("key cut from " + length(key) + " to " + keyRoom + " bytes");
            key = Arrays.copyOf(key, keyRoom);
        }
        notifierHeaders.add(header(TRUNCATED, String.join("; ", cut) + " to fit notifier.dlq.max-record-bytes ("
                + maxRecordBytes + ")"));
        return record(topic, key, value, original, notifierHeaders);
    }

    /** When the DLQ topic refuses even the record cut to the configured limit: what happened, and nothing of it. */
    static ProducerRecord<byte[], byte[]> reasonOnly(String topic, DeadLetter letter, String refusal) {
        List<Header> notifierHeaders = notifierHeaders(letter);
        notifierHeaders.add(header(TRUNCATED, "key, value and headers dropped: the DLQ topic refused the record ("
                + String.valueOf(refusal).strip() + "); lower notifier.dlq.max-record-bytes to the topic's max.message.bytes"));
        return record(topic, null, null, List.of(), notifierHeaders);
    }

    private static List<Header> notifierHeaders(DeadLetter letter) {
        List<Header> headers = new ArrayList<>();
        headers.add(header(ERROR, letter.reason()));
        headers.add(header(SOURCE, letter.source()));
        return headers;
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, byte[] key, byte[] value, List<Header> original,
                                                          List<Header> notifierHeaders) {
        List<Header> all = new ArrayList<>(original);
        all.addAll(notifierHeaders);
        return new ProducerRecord<>(topic, null, key, value, all);
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, String.valueOf(value).getBytes(StandardCharsets.UTF_8));
    }

    private static int size(List<Header> headers) {
        int total = 0;
        for (Header header : headers) {
            total += header.key().getBytes(StandardCharsets.UTF_8).length + length(header.value()) + PER_HEADER_BYTES;
        }
        return total;
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }
}
