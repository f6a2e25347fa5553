package dev.notifier.security;

import static dev.notifier.support.ContractEvent.recipientOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.event.HostileAddresses;
import dev.notifier.support.ContractEvent;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.SmtpSink;
import dev.notifier.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An address is delivered exactly as written or dead-lettered: what the SMTP server saw in RCPT TO
 * is compared with the event, for every address of a hostile corpus, end to end (Kafka, PostgreSQL,
 * a real SMTP server that records the envelope byte for byte).
 */
class HostileAddressTest extends PipelineTestBase {

    private final List<SmtpSink.AcceptedMail> received = new CopyOnWriteArrayList<>();
    private SmtpSink sink;

    @AfterEach
    void stopSink() throws Exception {
        if (sink != null) {
            sink.close();
        }
    }

    /** The default: SMTPUTF8 off. Only well-formed ASCII addresses are sent, every other one is dead-lettered. */
    @Test
    void shouldSendOnlyWellFormedAsciiAddressesAndDeadLetterTheRestWithoutSmtpUtf8() throws Exception {
        // the server would take UTF-8; Notifier must still refuse what it was not told to send that way
        Map<UUID, HostileAddresses> events = publishCorpus(new SmtpSink.Options(true, null), false);

        List<HostileAddresses> sendable = events.values().stream().filter(a -> a.ascii() && a.wellFormed()).toList();
        awaitSettled(events.size(), sendable.size());
        assertEnvelopesAre(sendable);
        Map<String, ConsumerRecord<byte[], byte[]>> dead = deadLetters(events.size() - sendable.size());
        events.forEach((eventId, sample) -> {
            if (!(sample.ascii() && sample.wellFormed())) {
                assertThat(dead).as(sample.description()).containsKey(eventId.toString());
                assertThat(reason(dead.get(eventId.toString()))).as(sample.description()).startsWith("recipient.email: ");
            }
        });
        assertThat(db.count("SELECT count(*) FROM notifications WHERE status <> 'SENT'")).isZero();
    }

    /** SMTPUTF8 on and offered: every well-formed address arrives exactly as written, non-ASCII ones with SMTPUTF8. */
    @Test
    void shouldSendEveryWellFormedAddressExactlyAsWrittenWithSmtpUtf8() throws Exception {
        Map<UUID, HostileAddresses> events = publishCorpus(new SmtpSink.Options(true, null), true);

        List<HostileAddresses> sendable = events.values().stream().filter(HostileAddresses::wellFormed).toList();
        awaitSettled(events.size(), sendable.size());
        assertEnvelopesAre(sendable);
        for (SmtpSink.AcceptedMail mail : received) {
            if (!mail.recipients().get(0).chars().allMatch(c -> c < 128)) {
                assertThat(mail.mailFrom()).as(mail.recipients().get(0)).endsWith(" SMTPUTF8");
            }
        }
        assertThat(deadLetters(events.size() - sendable.size())).hasSize(events.size() - sendable.size());
    }

    /** SMTPUTF8 on, but the server does not offer it: a non-ASCII address is FAILED, never sent altered. */
    @Test
    void shouldFailANonAsciiAddressWhenTheServerDoesNotOfferSmtpUtf8() throws Exception {
        Map<UUID, HostileAddresses> events = publishCorpus(new SmtpSink.Options(false, null), true);

        List<HostileAddresses> ascii = events.values().stream().filter(a -> a.ascii() && a.wellFormed()).toList();
        long nonAscii = events.values().stream().filter(a -> !a.ascii() && a.wellFormed()).count();
        awaitSettled(events.size(), ascii.size());
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'FAILED'")).isEqualTo((int) nonAscii));
        assertEnvelopesAre(ascii);
        assertThat(db.jdbc().queryForList("SELECT last_error FROM notifications WHERE status = 'FAILED'", String.class))
                .allSatisfy(error -> assertThat(error).contains("does not offer SMTPUTF8"));
        assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'FAILED' AND attempts = 1"))
                .isEqualTo((int) nonAscii);
    }

    private Map<UUID, HostileAddresses> publishCorpus(SmtpSink.Options server, boolean smtpUtf8) throws Exception {
        sink = SmtpSink.recording(received::add, server);
        Map<UUID, HostileAddresses> events = new java.util.LinkedHashMap<>();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (HostileAddresses sample : HostileAddresses.corpus()) {
            UUID eventId = UUID.randomUUID();
            events.put(eventId, sample);
            byte[] value = ContractEvent.bytesWith(root -> {
                root.put("eventId", eventId.toString());
                recipientOf(root).put("email", sample.address());
                root.putArray("channels").add("EMAIL");
            });
            records.add(new ProducerRecord<>(topic, eventId.toString().getBytes(StandardCharsets.UTF_8), value));
        }
        TestKafka.send(topic, records);
        Map<String, String> settings = settings();
        settings.put("notifier.smtp.port", String.valueOf(sink.port()));
        settings.put("notifier.smtp.utf8", String.valueOf(smtpUtf8));
        startNotifier(settings);
        return events;
    }

    private void awaitSettled(int records, int sent) {
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            assertThat(TestKafka.committedOffsets(group, topic)).isEqualTo(records);
            assertThat(sentCount()).isEqualTo(sent);
            assertThat(received).hasSize(sent);
        });
    }

    /** Every envelope the server saw is one recipient, byte for byte one of these addresses; each of them once. */
    private void assertEnvelopesAre(List<HostileAddresses> expected) {
        assertThat(received).allSatisfy(mail -> assertThat(mail.recipients()).hasSize(1));
        assertThat(received.stream().map(mail -> mail.recipients().get(0)))
                .containsExactlyInAnyOrderElementsOf(expected.stream().map(HostileAddresses::address).toList());
    }

    private Map<String, ConsumerRecord<byte[], byte[]>> deadLetters(int expected) {
        return TestKafka.readAll(dlqTopic, expected, Duration.ofSeconds(30)).stream()
                .collect(Collectors.toMap(r -> new String(r.key(), StandardCharsets.UTF_8), r -> r));
    }

    private static String reason(ConsumerRecord<byte[], byte[]> record) {
        return new String(record.headers().lastHeader("notifier-error").value(), StandardCharsets.UTF_8);
    }
}
