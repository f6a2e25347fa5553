package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;

/** The whole path on real parts: Kafka → inbox → one row per (event, channel) → SMTP and push. */
class PipelineTest extends PipelineTestBase {

    @Test
    void shouldFanOutOneEventToOneEmailAndOnePush() throws Exception {
        startNotifier();
        UUID eventId = UUID.randomUUID();
        TestKafka.send(topic, List.of(Events.record(topic, "TRX-1", Events.json(eventId, "th-TH", null))));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(2));

        assertThat(db.jdbc().queryForList("SELECT channel FROM notifications WHERE event_id = ? ORDER BY channel",
                String.class, eventId)).containsExactly("EMAIL", "PUSH");
        MimeMessage email = peers.emails()[0];
        assertThat(peers.emails()).hasSize(1);
        assertThat(email.getMessageID()).isEqualTo("<" + eventId + ".email@notifier>");
        assertThat(email.getHeader("X-Notification-Key", null)).isEqualTo(eventId + ":EMAIL");
        assertThat(email.getSubject()).isEqualTo("โอนเงินสำเร็จ ฿1,500.00");
        assertThat(email.getFrom()[0].toString()).isEqualTo("no-reply@notifier.local");
        assertThat(email.getAllRecipients()).extracting(Object::toString).containsExactly(Events.emailOf(eventId));
        assertThat(email.getContentType()).startsWith("multipart/alternative");
        assertThat(dev.notifier.demo.MailText.plain(email)).contains("สมชาย ใจดี").contains("฿1,500.00");

        var push = peers.pushes().get(0);
        assertThat(peers.pushes()).hasSize(1);
        assertThat(push.getHeader("Idempotency-Key")).isEqualTo(eventId + ":PUSH");
        // HttpClient spells the charset "UTF-8"; charset values are case-insensitive (RFC 9110 8.3.2)
        assertThat(push.getHeader("Content-Type")).isEqualToIgnoringCase("application/json; charset=utf-8");
        assertThat(push.containsHeader("Authorization")).isFalse();
        JsonNode body = new ObjectMapper().readTree(push.getBodyAsString());
        assertThat(body.get("token").asText()).startsWith("device-");
        assertThat(body.get("title").asText()).isEqualTo("โอนเงินสำเร็จ ฿1,500.00");
        assertThat(body.at("/data/eventId").asText()).isEqualTo(eventId.toString());
        assertThat(body.at("/data/transferId").asText()).startsWith("TRX-");
        assertThat(body.at("/data/type").asText()).isEqualTo("TransferCompleted");
    }

    @Test
    void shouldRejectTheSameEventAndChannelTwiceInTheDatabaseItself() throws Exception {
        startNotifier();
        UUID eventId = UUID.randomUUID();
        String insert = "INSERT INTO notifications (event_id, channel, status, user_id, transfer_id, payload,"
                + " created_at, updated_at, next_attempt_at) VALUES (?, ?, 'SENT', 'u', 't', '{}', now(), now(), now())";

        db.jdbc().update(insert, eventId, "EMAIL");
        db.jdbc().update(insert, eventId, "PUSH");

        assertThatThrownBy(() -> db.jdbc().update(insert, eventId, "EMAIL"))
                .isInstanceOf(DuplicateKeyException.class)
                .hasMessageContaining("notifications_event_channel_uq");
        assertThat(db.count("SELECT count(*) FROM notifications WHERE event_id = ?", eventId)).isEqualTo(2);
    }

    @Test
    void shouldSendEnglishWithAmountAndBearerTokenWhenConfigured() throws Exception {
        var settings = settings();
        settings.put("notifier.channel.push.token", "s3cret-token");
        startNotifier(settings);
        UUID eventId = UUID.randomUUID();
        TestKafka.send(topic, List.of(Events.record(topic, "TRX-2", Events.json(eventId, "en-GB", null))));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(2));

        assertThat(peers.emails()[0].getSubject()).isEqualTo("Transfer completed: THB 1,500.00");
        assertThat(peers.pushes().get(0).getHeader("Authorization")).isEqualTo("Bearer s3cret-token");
    }

    @Test
    void shouldNotLetKafkaRecordHeadersReachTheEmail() throws Exception {
        startNotifier();
        UUID eventId = UUID.randomUUID();
        ProducerRecord<byte[], byte[]> record = Events.record(topic, "TRX-3", Events.json(eventId, "en", "[\"EMAIL\"]"));
        for (String header : List.of("To", "Cc", "Bcc", "Subject", "From", "Reply-To", "Message-ID")) {
            record.headers().add(header, "attacker@evil.example".getBytes(StandardCharsets.UTF_8));
        }
        TestKafka.send(topic, List.of(record));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(1));

        assertThat(peers.smtp.getReceivedMessagesForDomain("evil.example")).isEmpty();
        MimeMessage email = peers.emails()[0];
        assertThat(peers.emails()).hasSize(1);
        assertThat(email.getRecipients(Message.RecipientType.TO)).extracting(Object::toString)
                .containsExactly(Events.emailOf(eventId));
        assertThat(email.getRecipients(Message.RecipientType.CC)).isNull();
        assertThat(email.getHeader("Reply-To")).isNull();
        assertThat(email.getMessageID()).isEqualTo("<" + eventId + ".email@notifier>");
        assertThat(peers.pushes()).isEmpty();
    }
}
