package dev.notifier.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/**
 * Nothing from outside chooses internal state: a record may carry headers named like every header
 * and property the routes read, like camel-kafka's own instructions and like email and HTTP headers,
 * with values of the wrong type. Valid events are delivered exactly as without them; a poison record
 * reaches the DLQ topic (not another) with those headers byte for byte.
 */
class RecordHeadersTest extends PipelineTestBase {

    /** Names the routes, camel-kafka, camel-mail and camel-http act on, and a few a mail or HTTP peer would. */
    private static final List<String> HOSTILE_NAMES = List.of(
            "optedOutChannels", "freshClaim", "claimToken", "claimUntil", "claimRenewed", "now", "nextAttemptAt",
            "insertedKeys", "claimedCount", "dueCount", "moreDue", "idempotencyKey", "retryKey", "plannedNotifications", "deadLetterReason", "recordSource",
            "eventId", "channel", "attempt", "createdAt", "event", "failure", "outcome", "notifier-error",
            "notifier-source", "notifier-truncated", "kafka.OVERRIDE_TOPIC", "kafka.KEY", "kafka.PARTITION_KEY",
            "CamelKafkaManualCommit", "CamelKafkaLastRecordBeforeCommit", "CamelKafkaHeaders", "CamelHttpUri",
            "CamelHttpMethod", "CamelHttpResponseCode", "CamelSqlUpdateCount", "To", "Cc", "Bcc", "From", "Subject",
            "Reply-To", "Message-ID", "X-Notification-Key", "Content-Type", "Authorization", "Idempotency-Key",
            "mail.smtp.host", "mail.smtp.port");

    @Test
    void shouldDeliverAsIfTheHeadersWereNotThereAndDeadLetterThemUnchanged() throws Exception {
        String elsewhere = TestKafka.createTopic("elsewhere", 1);
        List<UUID> valid = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        records.add(withHostileHeaders(Events.record(topic, "k0", Events.json(valid.get(0), "th-TH", null)), elsewhere));
        records.add(withHostileHeaders(Events.record(topic, "k1", Events.json(valid.get(1), "en", "[\"EMAIL\",\"PUSH\"]")),
                elsewhere));
        records.add(withHostileHeaders(Events.record(topic, "poison", "{\"not\": \"an event\"}"), elsewhere));
        records.add(withHostileHeaders(Events.record(topic, "k2", Events.json(valid.get(2), "en", null)), elsewhere));
        TestKafka.send(topic, records);

        startNotifier();

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(sentCount()).isEqualTo(2 * valid.size());
            assertThat(TestKafka.committedOffsets(group, topic)).isEqualTo(records.size());
        });
        List<ConsumerRecord<byte[], byte[]>> dead = TestKafka.readAll(dlqTopic, 1, Duration.ofSeconds(30));
        assertThat(dead).hasSize(1);
        ConsumerRecord<byte[], byte[]> letter = dead.get(0);
        assertThat(new String(letter.key(), StandardCharsets.UTF_8)).isEqualTo("poison");
        List<Header> original = new ArrayList<>();
        letter.headers().forEach(original::add);
        // the record's own headers first, in order and byte for byte (a notifier-* one carried as
        // producer:notifier-*, so it cannot pass for Notifier's); then Notifier's two
        assertThat(original.subList(0, HOSTILE_NAMES.size())).extracting(Header::key)
                .containsExactlyElementsOf(HOSTILE_NAMES.stream().map(RecordHeadersTest::asCarried).toList());
        assertThat(original.subList(0, HOSTILE_NAMES.size())).allSatisfy(h ->
                assertThat(h.value()).isEqualTo(hostileValue(h.key().replaceFirst("^producer:", ""), elsewhere)));
        assertThat(original.stream().filter(h -> h.key().equals("notifier-error"))).hasSize(1);
        assertThat(new String(letter.headers().lastHeader("notifier-error").value(), StandardCharsets.UTF_8))
                .startsWith("eventId: missing");
        assertThat(TestKafka.readAll(elsewhere, 0, Duration.ofSeconds(2))).isEmpty();

        MimeMessage[] emails = peers.emails();
        assertThat(emails).hasSize(valid.size());
        for (MimeMessage email : emails) {
            assertThat(email.getAllRecipients()).hasSize(1);
            assertThat(email.getHeader("Bcc")).isNull();
            assertThat(email.getHeader("Cc")).isNull();
            assertThat(email.getHeader("X-Notification-Key")[0]).endsWith(":EMAIL").doesNotContain("evil");
        }
        List<LoggedRequest> pushes = peers.pushes();
        assertThat(pushes).hasSize(valid.size());
        assertThat(pushes).allSatisfy(push -> {
            assertThat(push.getHeader("Idempotency-Key")).endsWith(":PUSH");
            assertThat(push.containsHeader("Bcc")).isFalse();
            assertThat(push.containsHeader("Authorization")).isFalse();
        });
    }

    private static String asCarried(String name) {
        return name.startsWith("notifier-") ? "producer:" + name : name;
    }

    private static ProducerRecord<byte[], byte[]> withHostileHeaders(ProducerRecord<byte[], byte[]> record, String elsewhere) {
        HOSTILE_NAMES.forEach(name -> record.headers().add(name, hostileValue(name, elsewhere)));
        return record;
    }

    /** Values of the wrong type for each name, and instructions that would do harm if followed. */
    private static byte[] hostileValue(String name, String elsewhere) {
        String text = switch (name) {
            case "kafka.OVERRIDE_TOPIC" -> elsewhere;
            case "To", "Cc", "Bcc", "Reply-To", "From" -> "spy@evil.example";
            case "mail.smtp.host" -> "evil.example";
            case "Authorization" -> "Bearer stolen";
            default -> "evil-" + name;
        };
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
