package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.ops.commands.ResendCommand;
import dev.notifier.support.CommandRun;
import dev.notifier.support.PipelineTestBase;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The case an operator resends for: the relay was down for a day, the email FAILED (expired), the relay
 * is back. The resend gives the row a fresh budget, and the running service sends it: once, SENT. (It
 * used to say "re-queued 1" and then expire the row again at once, with no send at all.)
 */
class ResendTest extends PipelineTestBase {

    @Test
    void shouldDeliverAResentNotificationRecordedMoreThanADayAgo() throws Exception {
        Instant twoDaysAgo = Instant.now().minus(Duration.ofDays(2));
        UUID eventId = events.record(twoDaysAgo, "[\"EMAIL\"]", "EMAIL");
        events.update(eventId, "EMAIL", "status = 'FAILED', attempts = 9, updated_at = ?,"
                + " last_error = 'expired: not delivered within 24 h of being recorded (notifier.delivery.max-age)'",
                twoDaysAgo.plus(Duration.ofDays(1)));
        startNotifier();

        CommandRun run = CommandRun.run(ResendCommand::new, events.settings(), "--failed");

        assertThat(run.out()).startsWith("re-queued 1 FAILED notification(s), each with a fresh budget");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(events.row(eventId, "EMAIL")).containsEntry("status", "SENT").containsEntry("attempts", 10));
        assertThat(emailKeys()).containsExactly("<" + eventId + ".email@notifier>");
        assertThat(db.jdbc().queryForList("SELECT outcome FROM notification_attempts WHERE event_id = ? ORDER BY id",
                String.class, eventId)).containsExactly("RESENT", "SENT");
    }
}
