package dev.notifier.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Content that only a bank sends, on real parts (Kafka, PostgreSQL, GreenMail, WireMock): a record whose
 * transferId is a link ends in the DLQ with the field named, and is never delivered; a name carrying bidi
 * controls and zero-width characters reaches the email and the push without them (the shipped email
 * templates, and a push template that greets by name). BatchContentOnlyABankSendsTest runs the same
 * through the batch intake.
 */
class ContentOnlyABankSendsTest extends PipelineTestBase {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Rendered as written, U+202E makes "Somchai gnp.exe" read "Somchai exe.png". */
    private static final String HOSTILE_NAME = "Somchai \u202Egnp.exe\u202C \u2066Jaidee\u2069\u200B\u200F";
    private static final String SHOWN_NAME = "Somchai gnp.exe Jaidee";

    @TempDir
    Path templates;

    @Test
    void shouldDeadLetterAUrlTransferIdAndDeliverANameWithoutItsFormatCharacters() throws Exception {
        Files.createDirectories(templates.resolve("push/en"));
        Files.writeString(templates.resolve("push/en/request.json"),
                "{\"token\": \"${to}\", \"title\": \"Hello ${name!\"customer\"}\", \"body\": \"Transfer ${transferId}\"}");
        Map<String, String> settings = settings();
        settings.put("notifier.templates.location", "file:" + templates + ",file:templates");
        UUID linked = UUID.randomUUID();
        byte[] linkedValue = Events.json(linked, "en", "[\"EMAIL\",\"PUSH\"]")
                .replaceFirst("\"transferId\":\"[^\"]+\"", "\"transferId\":\"https://evil.example/x\"")
                .getBytes(StandardCharsets.UTF_8);
        UUID named = UUID.randomUUID();
        String namedJson = Events.json(named, "en", "[\"EMAIL\",\"PUSH\"]").replace("สมชาย ใจดี", HOSTILE_NAME);
        // one key, one partition: the valid event after the poison shows the partition moved on
        TestKafka.send(topic, List.of(new ProducerRecord<>(topic, "k".getBytes(StandardCharsets.UTF_8), linkedValue),
                Events.record(topic, "k", namedJson)));

        startNotifier(settings);

        List<ConsumerRecord<byte[], byte[]>> dead = TestKafka.readAll(dlqTopic, 1, Duration.ofSeconds(30));
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).value()).isEqualTo(linkedValue);
        assertThat(new String(dead.get(0).headers().lastHeader("notifier-error").value(), StandardCharsets.UTF_8))
                .isEqualTo("transferId: looks like a URL (a scheme such as 'https:' or '//'), which a transfer id never is");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sentCount()).isEqualTo(2));
        assertThat(db.count("SELECT count(*) FROM notifications WHERE event_id = ?", linked)).isZero();

        MimeMessage[] emails = peers.emails();
        assertThat(emails).hasSize(1);
        MimeMultipart alternatives = (MimeMultipart) emails[0].getContent();
        for (int i = 0; i < alternatives.getCount(); i++) {
            String part = (String) alternatives.getBodyPart(i).getContent();
            assertThat(part).contains("Dear " + SHOWN_NAME + ",");
            assertNoFormatCharacters(part);
        }
        assertThat(peers.pushes()).hasSize(1);
        String push = peers.pushes().get(0).getBodyAsString();
        assertThat(JSON.readTree(push).get("title").asText()).isEqualTo("Hello " + SHOWN_NAME);
        assertNoFormatCharacters(push);
        assertThat(peers.push.getAllServeEvents()).noneMatch(e -> e.getRequest().getBodyAsString().contains("evil.example"));
    }

    private static void assertNoFormatCharacters(String text) {
        assertThat(text.codePoints().filter(c -> Character.getType(c) == Character.FORMAT).toArray())
                .as("format characters in %s", text).isEmpty();
    }
}
