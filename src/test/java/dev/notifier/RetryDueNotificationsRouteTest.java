package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.event.EventParser;
import dev.notifier.support.AdvisedNotifier;
import dev.notifier.support.Events;
import dev.notifier.support.DatabaseTestBase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** retry-due-notifications: the safety net claims and sends what is due, a backlog included. */
class RetryDueNotificationsRouteTest extends DatabaseTestBase {

    private static final int BACKLOG = 23;

    @Test
    void shouldDrainABacklogInOnePollRatherThanOneBatchPerPoll() throws Exception {
        Map<String, String> settings = AdvisedNotifier.settings(db);
        settings.put("notifier.delivery.batch-size", "5");
        // the timer's first poll is the only one this test lives to see
        settings.put("notifier.delivery.poll-millis", "600000");
        try (AdvisedNotifier notifier = AdvisedNotifier.start(settings)) {
            // what the fast path dropped when its queue was full: PENDING rows nobody is sending
            EventParser parser = new EventParser(65_536);
            for (int i = 0; i < BACKLOG; i++) {
                UUID eventId = UUID.randomUUID();
                String payload = parser.toJson(parser.parse(
                        Events.json(eventId, "en", "[\"PUSH\"]").getBytes(StandardCharsets.UTF_8)));
                db.jdbc().update("INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id,"
                        + " payload, created_at, updated_at, next_attempt_at)"
                        + " VALUES (?, 'PUSH', 'PENDING', 0, 'u', 't', ?, now(), now(), now())", eventId, payload);
            }
            notifier.push().expectedMessageCount(BACKLOG);

            notifier.startRoutes();

            notifier.push().assertIsSatisfied(30_000);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                    db.count("SELECT count(*) FROM notifications WHERE status = 'SENT'")).isEqualTo(BACKLOG));
        }
    }
}
