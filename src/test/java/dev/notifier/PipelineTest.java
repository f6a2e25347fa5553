package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.Events;
import dev.notifier.support.Peers;
import dev.notifier.support.RunningNotifier;
import dev.notifier.support.TestDatabase;
import dev.notifier.support.TestKafka;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The whole path on real parts: Kafka → inbox → rows → SMTP and push. */
class PipelineTest {

    private TestDatabase db;
    private Peers peers;
    private String topic;
    private RunningNotifier notifier;

    @BeforeEach
    void start() throws Exception {
        db = new TestDatabase();
        peers = new Peers();
        topic = TestKafka.createTopic("events", 3);
        notifier = RunningNotifier.start(RunningNotifier.settings(db, topic, topic + ".dlq", "g-" + topic,
                peers.smtpPort(), peers.pushUrl()));
    }

    @AfterEach
    void stop() throws Exception {
        notifier.close();
        peers.close();
        db.close();
    }

    @Test
    void shouldFanOutOneEventToOneEmailAndOnePush() throws Exception {
        UUID eventId = UUID.randomUUID();
        TestKafka.send(topic, List.of(Events.record(topic, "TRX-1", Events.json(eventId, "th-TH", null))));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'SENT'")).isEqualTo(2));

        assertThat(db.count("SELECT count(*) FROM notifications WHERE event_id = ?", eventId)).isEqualTo(2);
        MimeMessage[] emails = peers.emails();
        assertThat(emails).hasSize(1);
        assertThat(emails[0].getMessageID()).isEqualTo("<" + eventId + ".email@notifier>");
        assertThat(emails[0].getHeader("X-Notification-Key", null)).isEqualTo(eventId + ":EMAIL");
        assertThat(emails[0].getSubject()).isEqualTo("โอนเงินสำเร็จ ฿1,500.00");
        assertThat(peers.pushes()).hasSize(1);
        assertThat(peers.pushes().get(0).getHeader("Idempotency-Key")).isEqualTo(eventId + ":PUSH");
    }
}
