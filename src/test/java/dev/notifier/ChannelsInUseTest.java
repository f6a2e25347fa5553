package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A bank without email (NOTIFIER_CHANNELS=PUSH,LINE): the service starts without email's route, beans and
 * templates, and an event whose recipient has all three addresses becomes push and LINE messages only.
 * (It used to fail at start: send-email named a composeEmail bean that a deployment without email has not.)
 */
class ChannelsInUseTest extends PipelineTestBase {

    @Test
    void shouldRunWithoutEmailAndLeaveItsRouteOut() throws Exception {
        Map<String, String> settings = settings();
        settings.put("notifier.channels", "PUSH,LINE");
        startNotifier(settings);
        UUID eventId = UUID.randomUUID();

        TestKafka.send(topic, List.of(Events.record(topic, "k", Events.withLine(eventId, "en",
                "U4af4980629b1e6cbc0b06fd9a5e1cbcc", null))));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(db.count("SELECT count(*) FROM notifications WHERE status = 'SENT'")).isEqualTo(2));
        assertThat(db.jdbc().queryForList("SELECT channel FROM notifications ORDER BY channel", String.class))
                .containsExactly("LINE", "PUSH");
        assertThat(peers.emails()).isEmpty();
        assertThat(notifier.context().getRoute("send-email")).as("email's provider route").isNull();
        assertThat(notifier.context().getRoute("deliver-email")).isNull();
        assertThat(notifier.context().getRegistry().lookupByName("smtpSender")).isNull();
        assertThat(notifier.context().getRoute("send-push")).isNotNull();
        assertThat(notifier.context().getRoute("send-line")).isNotNull();
    }
}
