package dev.notifier.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.SmtpSink;
import dev.notifier.support.TestCertificates;
import dev.notifier.support.TestKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.dao.EmptyResultDataAccessException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * NOTIFIER_SMTP_TLS on real TLS: STARTTLS required against a server that offers it (and one that
 * does not, and one whose certificate is not trusted), and SMTPS against GreenMail with a
 * certificate of ours. The client checks the chain against the configured trust store and the
 * certificate's name against the host; it never trusts all.
 */
class SmtpTlsTest extends PipelineTestBase {

    private final List<SmtpSink.AcceptedMail> received = new CopyOnWriteArrayList<>();
    private SmtpSink sink;
    private GreenMail smtps;

    @AfterEach
    void stopServers() throws Exception {
        if (sink != null) {
            sink.close();
        }
        if (smtps != null) {
            smtps.stop();
        }
    }

    @Test
    void shouldSendOverStartTlsWhenRequired() throws Exception {
        sink = SmtpSink.recording(received::add, new SmtpSink.Options(false, TestCertificates.serverContext()));
        UUID eventId = publishEmailEvent();

        startNotifier(tls("starttls", sink.port(), true));

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(received).hasSize(1));
        assertThat(received.get(0).tls()).isTrue();
        assertThat(received.get(0).recipients()).containsExactly(Events.emailOf(eventId));
        await().untilAsserted(() -> assertThat(sentCount()).isEqualTo(1));
    }

    /** Required means required: a server without STARTTLS gets nothing in clear, and the row is retried. */
    @Test
    void shouldNotSendInClearToAServerWithoutStartTls() throws Exception {
        sink = SmtpSink.recording(received::add, SmtpSink.Options.PLAIN);
        UUID eventId = publishEmailEvent();

        startNotifier(tls("starttls", sink.port(), true));

        // the row may not be recorded yet when first asked: no row is "not yet", not a failure
        await().atMost(Duration.ofSeconds(60)).ignoreException(EmptyResultDataAccessException.class)
                .untilAsserted(() -> assertThat(db.jdbc().queryForObject(
                "SELECT last_error FROM notifications WHERE event_id = ?", String.class, eventId)).contains("STARTTLS"));
        assertThat(db.jdbc().queryForObject("SELECT status FROM notifications WHERE event_id = ?", String.class, eventId))
                .isIn("PENDING", "SENDING");
        assertThat(received).isEmpty();
    }

    @Test
    void shouldNotSendToAServerWhoseCertificateIsNotTrusted() throws Exception {
        sink = SmtpSink.recording(received::add, new SmtpSink.Options(false, TestCertificates.serverContext()));
        UUID eventId = publishEmailEvent();

        // no trust store: the JVM's CAs, which never signed the test certificate
        startNotifier(tls("starttls", sink.port(), false));

        // the row may not be recorded yet when first asked: no row is "not yet", not a failure
        await().atMost(Duration.ofSeconds(60)).ignoreException(EmptyResultDataAccessException.class)
                .untilAsserted(() -> assertThat(db.jdbc().queryForObject(
                "SELECT last_error FROM notifications WHERE event_id = ?", String.class, eventId))
                .containsIgnoringCase("certification path"));
        assertThat(received).isEmpty();
    }

    @Test
    void shouldSendOverSmtpsWithCredentials() throws Exception {
        System.setProperty("greenmail.tls.keystore.file", TestCertificates.serverKeystore().toString());
        System.setProperty("greenmail.tls.keystore.password", TestCertificates.PASSWORD);
        smtps = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTPS));
        smtps.setUser("notifier", "app-password");
        smtps.start();
        UUID eventId = publishEmailEvent();
        Map<String, String> settings = tls("smtps", smtps.getSmtps().getPort(), true);
        settings.put("notifier.smtp.user", "notifier");
        settings.put("notifier.smtp.password", "app-password");

        startNotifier(settings);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(smtps.getReceivedMessages()).hasSize(1));
        assertThat(smtps.getReceivedMessages()[0].getAllRecipients()[0].toString()).isEqualTo(Events.emailOf(eventId));
        await().untilAsserted(() -> assertThat(sentCount()).isEqualTo(1));
    }

    private UUID publishEmailEvent() {
        UUID eventId = UUID.randomUUID();
        TestKafka.send(topic, List.of(Events.record(topic, "k", Events.json(eventId, "en", "[\"EMAIL\"]"))));
        return eventId;
    }

    private Map<String, String> tls(String mode, int port, boolean trustTestCertificate) {
        Map<String, String> settings = settings();
        // the certificate names localhost and 127.0.0.1: the host is checked against it
        settings.put("notifier.smtp.host", "localhost");
        settings.put("notifier.smtp.port", String.valueOf(port));
        settings.put("notifier.smtp.tls", mode);
        if (trustTestCertificate) {
            settings.put("notifier.smtp.truststore", TestCertificates.truststore().toString());
            settings.put("notifier.smtp.truststore-password", TestCertificates.PASSWORD);
        }
        return settings;
    }
}
