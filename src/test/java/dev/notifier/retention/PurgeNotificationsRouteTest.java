package dev.notifier.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.notifier.ops.commands.VerifyCommand;
import dev.notifier.support.AdvisedNotifier;
import dev.notifier.support.CommandRun;
import dev.notifier.support.DatabaseTestBase;
import dev.notifier.support.LogCapture;
import dev.notifier.support.RunningNotifier;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Retention of personal data: once every row of an event is final and older than the retention,
 * the event's rows and attempt history go, in bounded batches; nothing younger or unfinished does,
 * and {@code verify} stays clean.
 */
class PurgeNotificationsRouteTest extends DatabaseTestBase {

    private final Instant longAgo = Instant.now().minus(Duration.ofDays(100));
    private AdvisedNotifier notifier;

    @AfterEach
    void stop() {
        if (notifier != null) {
            notifier.close();
        }
    }

    @Test
    void shouldDeleteOldFinalEventsWholeAndKeepEverythingElse() throws Exception {
        UUID[] old = new UUID[5];
        for (int i = 0; i < old.length; i++) {
            old[i] = events.record(longAgo, "[\"EMAIL\",\"PUSH\"]", "EMAIL", "PUSH");
            finalState(old[i], "EMAIL", "SENT", longAgo);
            finalState(old[i], "PUSH", i % 2 == 0 ? "SENT" : "FAILED", longAgo);
        }
        // one channel not final (the poller ends it now, so it is young then): the event keeps both rows,
        // and verify never sees half an event
        UUID half = events.record(longAgo, "[\"EMAIL\",\"PUSH\"]", "EMAIL", "PUSH");
        finalState(half, "EMAIL", "SENT", longAgo);
        // final, but changed recently
        UUID young = events.record(longAgo, "[\"EMAIL\"]", "EMAIL");
        finalState(young, "EMAIL", "SENT", Instant.now().minus(Duration.ofDays(10)));
        int logMark = LogCapture.mark();

        notifier = AdvisedNotifier.start(settings("90d")).startRoutes();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(db.count("SELECT count(*) FROM notifications")).isEqualTo(3));
        assertThat(db.jdbc().queryForList("SELECT DISTINCT event_id FROM notifications", UUID.class))
                .containsExactlyInAnyOrder(half, young);
        for (UUID purged : old) {
            assertThat(db.count("SELECT count(*) FROM notification_attempts WHERE event_id = ?", purged)).isZero();
        }
        assertThat(db.count("SELECT count(*) FROM notification_attempts WHERE event_id = ?", young)).isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(7);
        await().untilAsserted(() -> assertThat(LogCapture.since(logMark)).anyMatch(line -> line.matches(
                "purged 10 notifications of 5 events final before \\S+ \\(retention 90d\\) in 3 batches")));
        notifier.close();
        notifier = null;
        CommandRun verify = CommandRun.run(VerifyCommand::new, events.settings());
        assertThat(verify.exitCode()).as(verify.out()).isZero();
        assertThat(verify.out()).endsWith("clean\n");
    }

    @Test
    void shouldKeepEverythingWithoutRetention() throws Exception {
        UUID old = events.record(longAgo, "[\"EMAIL\"]", "EMAIL");
        finalState(old, "EMAIL", "SENT", longAgo);

        notifier = AdvisedNotifier.start(settings("")).startRoutes();

        assertThat(new org.apache.camel.builder.NotifyBuilder(notifier.context()).fromRoute("purge-notifications")
                .whenDone(2).create().matches(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(db.count("SELECT count(*) FROM notifications")).isEqualTo(1);
    }

    @Test
    void shouldRefuseARetentionUnderOneDay() {
        assertThatThrownBy(() -> RunningNotifier.start(settings("12h"))).hasStackTraceContaining("an age under 1d is refused");
    }

    private Map<String, String> settings(String retention) {
        Map<String, String> settings = AdvisedNotifier.settings(db);
        settings.put("notifier.retention.notifications", retention);
        settings.put("notifier.inbox.purge-interval-millis", "200");
        settings.put("notifier.inbox.purge-batch-size", "2");
        return settings;
    }

    private void finalState(UUID eventId, String channel, String status, Instant at) {
        events.update(eventId, channel, "status = ?, attempts = 1, updated_at = ?", status, at);
        db.jdbc().update("INSERT INTO notification_attempts (event_id, channel, attempt, outcome, error, finished_at)"
                + " VALUES (?, ?, 1, ?, NULL, ?)", eventId, channel, status, dev.notifier.support.RecordedEvents.at(at));
    }
}
