package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.Events;
import dev.notifier.support.LogCapture;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.SmtpSink;
import dev.notifier.support.TestKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A relay that works but answers every command just under the timeout, with fewer connections than
 * senders and more emails than the senders can finish within one claim: claims run out while their
 * notifications wait, and the retry poller claims them again. However late a send runs, it never
 * outlives its claim, so no second sender follows one that is still talking to the relay: every
 * Message-ID is accepted exactly once (counted at the final dot, as a relay commits a message).
 */
class SlowRelayTest extends PipelineTestBase {

    private static final int EMAILS = 12;
    private static final Duration TIMEOUT = Duration.ofMillis(1000);

    private final List<SmtpSink.AcceptedMail> accepted = new CopyOnWriteArrayList<>();
    private SmtpSink relay;

    @AfterEach
    void closeRelay() throws Exception {
        if (relay != null) {
            relay.close();
        }
    }

    @Test
    void shouldAcceptEveryEmailOnceFromARelayThatAnswersJustUnderTheTimeout() throws Exception {
        relay = SmtpSink.recording(accepted::add, SmtpSink.Options.slow(TIMEOUT.multipliedBy(9).dividedBy(10)));
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < EMAILS; i++) {
            records.add(Events.record(topic, "k" + i, Events.json(UUID.randomUUID(), "en", "[\"EMAIL\"]")));
        }
        Map<String, String> settings = settings();
        settings.put("notifier.smtp.port", String.valueOf(relay.port()));
        settings.put("notifier.smtp.timeout-millis", String.valueOf(TIMEOUT.toMillis()));
        // a pool smaller than the senders: senders wait for a connection too
        settings.put("notifier.delivery.senders", "4");
        settings.put("notifier.smtp.connections", "2");
        settings.put("notifier.smtp.connection-wait-millis", "1000");
        // the longest send by these timeouts (1 s wait + 7 x 1 s) fits this claim with its margins,
        // which the start checks (no WARN); a notification still waits longer than that in the queue
        settings.put("notifier.delivery.lease-seconds", "12");
        settings.put("notifier.delivery.retry-base-millis", "500");
        // and so do the HTTP channels' sends, which this test does not use
        settings.put("camel.component.http.connection-request-timeout", "1000");
        for (String channel : List.of("push", "line")) {
            settings.put("notifier.channel." + channel + ".connect-timeout-millis", "1000");
            settings.put("notifier.channel." + channel + ".read-timeout-millis", "1000");
        }
        int mark = LogCapture.mark();

        startNotifier(settings);
        TestKafka.send(topic, records);

        await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'SENT'")).isEqualTo(EMAILS));
        List<String> keys = accepted.stream().map(SmtpSink.AcceptedMail::messageId).toList();
        assertThat(duplicates(keys)).as("Message-IDs the relay accepted twice").isEmpty();
        assertThat(keys).hasSize(EMAILS);
        assertThat(db.count("SELECT count(*) FROM notification_attempts WHERE claim_lost")).as("outcomes after a takeover")
                .isZero();
        assertThat(db.count("SELECT count(*) FROM notifications WHERE attempts > 1"))
                .as("claims that ran out while their notification waited, and were claimed again").isPositive();
        assertThat(LogCapture.entriesSince(mark)).noneSatisfy(e -> assertThat(e.line()).contains("longer than its claim allows"));
    }
}
