package dev.notifier.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.notifier.support.AdvisedNotifier;
import dev.notifier.support.DatabaseTestBase;
import dev.notifier.support.LogCapture;
import dev.notifier.support.RunningNotifier;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.camel.builder.NotifyBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** purge-inbox: the retention the service runs on its own, through the same InboxPurge as the command. */
class PurgeInboxRouteTest extends DatabaseTestBase {

    private AdvisedNotifier notifier;

    @BeforeEach
    void recordKeys() {
        Instant now = Instant.now();
        for (int i = 0; i < 5; i++) {
            events.inboxKey("old-" + i, now.minus(Duration.ofDays(31)));
        }
        events.inboxKey("young", now.minus(Duration.ofDays(29)));
        // the bounce mailbox's keys: one as old as the purged ones, one young
        for (String[] key : new String[][] {{"<old-dsn@relay>", "40"}, {"<young-dsn@relay>", "29"}}) {
            db.jdbc().update("INSERT INTO bounce_inbox (processor_name, message_id, created_at) VALUES ('read-bounces', ?, ?)",
                    key[0], java.sql.Timestamp.from(now.minus(Duration.ofDays(Long.parseLong(key[1])))));
        }
    }

    @AfterEach
    void stop() {
        if (notifier != null) {
            notifier.close();
        }
    }

    @Test
    void shouldPurgeKeysOlderThanTheConfiguredRetentionOnItsTimer() throws Exception {
        int logMark = LogCapture.mark();

        notifier = start(Map.of("notifier.inbox.retention", "30d", "notifier.inbox.purge-batch-size", "2"));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(db.jdbc().queryForList("SELECT message_id FROM inbox", String.class)).containsExactly("young"));
        await().untilAsserted(() -> assertThat(LogCapture.since(logMark))
                .anyMatch(line -> line.matches("purged 6 inbox keys received before \\S+ \\(retention 30d\\) in 4 batches")));
        assertThat(db.jdbc().queryForList("SELECT message_id FROM bounce_inbox", String.class)).containsExactly("<young-dsn@relay>");
    }

    @Test
    void shouldLeaveTheInboxAloneWithoutRetention() throws Exception {
        notifier = AdvisedNotifier.start(settings(Map.of()));
        NotifyBuilder twoRuns = new NotifyBuilder(notifier.context()).fromRoute("purge-inbox").whenDone(2).create();
        notifier.startRoutes();

        assertThat(twoRuns.matches(30, TimeUnit.SECONDS)).isTrue();
        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(6);
    }

    @Test
    void shouldRefuseToStartWithARetentionUnderOneDay() {
        assertThatThrownBy(() -> RunningNotifier.start(settings(Map.of("notifier.inbox.retention", "30m"))))
                .hasStackTraceContaining("an age under 1d is refused");
    }

    @Test
    void shouldRefuseToStartWithARetentionShorterThanTheDedupWindow() {
        Map<String, String> settings = settings(Map.of("notifier.inbox.retention", "30d"));
        settings.remove("notifier.event.max-past");

        assertThatThrownBy(() -> RunningNotifier.start(settings))
                .hasStackTraceContaining("notifier.inbox.retention (30d) is shorter than the dedup window, 367d");
    }

    private AdvisedNotifier start(Map<String, String> extra) throws Exception {
        return AdvisedNotifier.start(settings(extra)).startRoutes();
    }

    private Map<String, String> settings(Map<String, String> extra) {
        Map<String, String> settings = AdvisedNotifier.settings(db);
        settings.put("notifier.inbox.purge-interval-millis", "200");
        // events accepted up to 7d old: a dedup window of 9d, so the 30d retention below is allowed
        settings.put("notifier.event.max-past", "7d");
        settings.putAll(extra);
        return settings;
    }
}
