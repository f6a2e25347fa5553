package dev.notifier.ops.commands;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.CommandRun;
import dev.notifier.support.DatabaseTestBase;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InboxCommandTest extends DatabaseTestBase {

    @Test
    void shouldDeleteOnlyKeysOlderThanTheAgeInBatches() {
        Instant now = Instant.now();
        for (int i = 0; i < 5; i++) {
            events.inboxKey("old-" + i, now.minus(Duration.ofDays(31 + i)));
        }
        events.inboxKey("young-1", now.minus(Duration.ofDays(29)));
        events.inboxKey("young-2", now.minus(Duration.ofHours(1)));
        Map<String, String> settings = shortWindow(events.settings());
        settings.put("notifier.inbox.purge-batch-size", "2");

        CommandRun run = CommandRun.run(InboxCommand::new, settings, "purge", "--older-than", "30d");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).matches("deleted 5 inbox key\\(s\\) received before \\S+Z in 3 batch\\(es\\) of at most 2\n");
        assertThat(db.jdbc().queryForList("SELECT message_id FROM inbox ORDER BY message_id", String.class))
                .containsExactly("young-1", "young-2");
    }

    @Test
    void shouldLeaveTheNotificationRowsOfAPurgedKey() {
        var eventId = events.record(Instant.now().minus(Duration.ofDays(40)), "[\"EMAIL\"]", "EMAIL");

        CommandRun run = purge("purge", "--older-than=30d");

        assertThat(run.out()).startsWith("deleted 1 inbox key(s)");
        assertThat(events.row(eventId, "EMAIL")).containsEntry("status", "PENDING");
    }

    @Test
    void shouldSayNothingWasDeletedWhenNoKeyIsOldEnough() {
        events.inboxKey("young", Instant.now());

        CommandRun run = purge("purge", "--older-than", "10d");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("deleted 0 inbox key(s)").contains("in 0 batch(es)");
        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(1);
    }

    @Test
    void shouldRefuseAnAgeUnderOneDay() {
        events.inboxKey("young", Instant.now().minus(Duration.ofHours(2)));

        CommandRun run = purge("purge", "--older-than", "15m");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("inbox: --older-than: an inbox key must be kept longer than the topic's retention;");
        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(1);
    }

    @Test
    void shouldRefuseAnAgeShorterThanTheDedupWindow() {
        events.inboxKey("old", Instant.now().minus(Duration.ofDays(40)));

        // the default notifier.event.max-past, 365d: such a record can come back and be accepted for a year
        CommandRun run = CommandRun.run(InboxCommand::new, events.settings(), "purge", "--older-than", "30d");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("inbox: --older-than: --older-than (30d) is shorter than the dedup window, 367d:");
        assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(1);
    }

    @Test
    void shouldRejectBadArgumentsWithUsage() {
        assertThat(purge("purge").err()).startsWith("inbox: --older-than is required\nusage: ");
        assertThat(purge("purge", "--older-than", "30 days").err())
                .startsWith("inbox: --older-than: '30 days' is not a duration such as 30d, 12h, 15m or 45s\n");
        assertThat(purge("--older-than", "30d").err()).startsWith("inbox: missing subcommand (purge)\n");
        CommandRun wrong = purge("prune", "--older-than", "30d");
        assertThat(wrong.exitCode()).isEqualTo(2);
        assertThat(wrong.err()).startsWith("inbox: unknown subcommand 'prune'\n");
    }

    @Test
    void shouldPrintUsageOnHelp() {
        CommandRun run = purge("purge", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("usage: java -jar notifier.jar inbox purge --older-than AGE");
    }

    @Test
    void shouldFailInOneLineWhenTheDatabaseIsDown() {
        CommandRun run = CommandRun.run(InboxCommand::new, shortWindow(CommandRun.deadDatabase()), "purge",
                "--older-than", "30d");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("inbox: cannot connect to the database").hasLineCount(1);
    }

    private CommandRun purge(String... args) {
        return CommandRun.run(InboxCommand::new, shortWindow(events.settings()), args);
    }

    /** Events accepted up to 7d old: a dedup window of 9d, so 30d keys may go. */
    private static Map<String, String> shortWindow(Map<String, String> settings) {
        Map<String, String> shorter = new HashMap<>(settings);
        shorter.put("notifier.event.max-past", "7d");
        return shorter;
    }
}
