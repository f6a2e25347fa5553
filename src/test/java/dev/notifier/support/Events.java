package dev.notifier.support;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Contract-shaped event JSON for tests. */
public final class Events {

    private Events() {
    }

    public static String json(UUID eventId, String locale, String channels) {
        return """
                {"eventId":"%s","type":"TransferCompleted","occurredAt":"2026-12-02T10:15:30Z",
                 "transferId":"TRX-%s","amount":"1500.00","currency":"THB",
                 "recipient":{"userId":"u-%s","name":"สมชาย ใจดี","locale":"%s",
                   "email":"user-%s@example.com","pushToken":"device-%s"}%s}
                """.formatted(eventId, short8(eventId), short8(eventId), locale, short8(eventId), short8(eventId),
                channels == null ? "" : ",\"channels\":" + channels);
    }

    /** A recipient with a LINE user id beside the email address and push token. */
    public static String withLine(UUID eventId, String locale, String lineUserId, String channels) {
        return json(eventId, locale, channels).replace("\"pushToken\":", "\"lineUserId\":\"" + lineUserId + "\",\"pushToken\":");
    }

    public static ProducerRecord<byte[], byte[]> record(String topic, String key, String json) {
        return new ProducerRecord<>(topic, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                json.getBytes(StandardCharsets.UTF_8));
    }

    public static String userIdOf(UUID eventId) {
        return "u-" + short8(eventId);
    }

    public static String emailOf(UUID eventId) {
        return "user-" + short8(eventId) + "@example.com";
    }

    private static String short8(UUID id) {
        return id.toString().substring(0, 8);
    }
}
