package dev.notifier.ops.commands;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.CommandRun;
import dev.notifier.support.DatabaseTestBase;
import dev.notifier.support.RecordedEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class VerifyCommandTest extends DatabaseTestBase {

    private final Instant hourAgo = Instant.now().minus(Duration.ofHours(1));

    @Test
    void shouldPassAHealthyDatabaseIncludingAnEventThatPlannedNoChannel() {
        sent(events.record(hourAgo, "[\"EMAIL\",\"PUSH\"]", "EMAIL", "PUSH"), "EMAIL", "PUSH");
        events.record(hourAgo, "[]");
        UUID optedOut = events.record(hourAgo, null, "EMAIL");
        sent(optedOut, "EMAIL");
        preference(optedOut, "PUSH", true, hourAgo.minus(Duration.ofDays(1)));

        CommandRun run = verify();

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("checked 3 inbox key(s) (1 without rows: planned no channel or purged by retention, not checkable)"
                + " and their rows: clean\n");
    }

    @Nested
    class MissingChannelRows {

        @Test
        void shouldFindAChannelTheEventNamedButHasNoRow() {
            UUID eventId = events.record(hourAgo, "[\"EMAIL\",\"PUSH\"]", "EMAIL");
            sent(eventId, "EMAIL");

            CommandRun run = verify();

            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.out()).startsWith("missing    event " + eventId + " channel PUSH: planned for this event"
                    + " (named by it), but there is no row\n").endsWith("1 finding(s)\n");
        }

        @Test
        void shouldFindAChannelThePlannerDerivesFromTheRecipientsAddresses() {
            UUID eventId = events.record(hourAgo, null, "PUSH");
            sent(eventId, "PUSH");

            assertThat(verify().out()).contains("event " + eventId + " channel EMAIL: planned for this event"
                    + " (the recipient has the address), but there is no row");
        }

        @Test
        void shouldNotBlameAChannelWhosePreferenceChangedAfterTheEvent() {
            UUID eventId = events.record(hourAgo, null, "EMAIL");
            sent(eventId, "EMAIL");
            // opted out then, opted in again since: what was planned then can no longer be known
            preference(eventId, "PUSH", false, Instant.now());

            assertThat(verify().exitCode()).isZero();
        }
    }

    @Nested
    class StuckRows {

        @Test
        void shouldFindASendingRowWhoseClaimExpiredLongAgo() {
            UUID stuck = events.record(hourAgo, "[\"EMAIL\",\"PUSH\"]", "EMAIL", "PUSH");
            events.update(stuck, "EMAIL", "status = 'SENDING', attempts = 2, claimed_until = ?", hourAgo.plusSeconds(60));
            events.update(stuck, "PUSH", "status = 'SENDING', attempts = 1, claimed_until = ?",
                    Instant.now().minus(Duration.ofMinutes(2)));

            CommandRun run = verify();

            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.out()).contains("stuck      event " + stuck + " channel EMAIL: SENDING after 2 attempt(s),"
                    + " claimed until " + hourAgo.plusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.MILLIS))
                    .doesNotContain("channel PUSH").endsWith("1 finding(s)\n");
        }

        @Test
        void shouldFindAPendingRowLongOverdue() {
            UUID stuck = events.record(hourAgo, "[\"PUSH\"]", "PUSH");
            UUID due = events.record(Instant.now(), "[\"PUSH\"]", "PUSH");

            CommandRun run = verify("--grace", "30m");

            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.out()).contains("stuck      event " + stuck + " channel PUSH: PENDING after 0 attempt(s), due since")
                    .doesNotContain(due.toString());
        }

        @Test
        void shouldFindASendingRowWithoutAClaimWhichThePollerNeverTakesOver() {
            UUID stuck = events.record(Instant.now(), "[\"EMAIL\"]", "EMAIL");
            events.update(stuck, "EMAIL", "status = 'SENDING'");

            assertThat(verify().out()).contains("stuck      event " + stuck + " channel EMAIL: SENDING after 0 attempt(s),"
                    + " claimed until -");
        }
    }

    @Test
    void shouldFindTheSameEventAndChannelTwiceInADatabaseWithoutItsConstraint() {
        UUID eventId = events.record(hourAgo, "[\"EMAIL\"]", "EMAIL");
        sent(eventId, "EMAIL");
        db.jdbc().execute("ALTER TABLE notifications DROP CONSTRAINT notifications_event_channel_uq");
        db.jdbc().update("INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload,"
                + " created_at, updated_at, next_attempt_at) SELECT event_id, channel, status, attempts, user_id, transfer_id,"
                + " payload, created_at, updated_at, next_attempt_at FROM notifications");

        CommandRun run = verify();

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("duplicate  event " + eventId + " channel EMAIL: 2 rows for one (event, channel)");
    }

    @Test
    void shouldFindAPayloadThatNoLongerParses() {
        UUID eventId = events.record(hourAgo, "[\"EMAIL\"]", "EMAIL");
        sent(eventId, "EMAIL");
        events.update(eventId, "EMAIL", "payload = '{}'");

        assertThat(verify().out()).contains("unreadable event " + eventId + " channel EMAIL: stored event payload no longer parses");
    }

    @Test
    void shouldAuditOnlyWhatWasCreatedSinceTheGivenInstant() {
        events.record(hourAgo, "[\"EMAIL\",\"PUSH\"]", "EMAIL");
        sent(events.record(Instant.now(), "[\"PUSH\"]", "PUSH"), "PUSH");

        CommandRun run = verify("--since", Instant.now().minus(Duration.ofMinutes(5)).toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("checked 1 inbox key(s) since").endsWith("clean\n");
    }

    @Test
    void shouldRejectBadArgumentsWithUsage() {
        assertThat(verify("--grace", "10").err()).startsWith("verify: --grace: '10' is not a duration such as 30d, 12h,");
        assertThat(verify("--since", "2026-12-02").err()).startsWith("verify: --since: '2026-12-02' is neither an ISO-8601 instant");
        CommandRun extra = verify("everything");
        assertThat(extra.exitCode()).isEqualTo(2);
        assertThat(extra.err()).startsWith("verify: unexpected argument 'everything'\nusage: java -jar notifier.jar verify");
    }

    @Test
    void shouldPrintUsageOnHelp() {
        CommandRun run = verify("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("usage: java -jar notifier.jar verify").contains("Not findings: an inbox key without any row");
    }

    @Test
    void shouldFailInOneLineWhenTheDatabaseIsDown() {
        CommandRun run = CommandRun.run(VerifyCommand::new, CommandRun.deadDatabase());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("verify: cannot connect to the database").hasLineCount(1);
    }

    private void sent(UUID eventId, String... channels) {
        for (String channel : channels) {
            events.update(eventId, channel, "status = 'SENT', attempts = 1, sent_at = updated_at");
        }
    }

    private void preference(UUID eventId, String channel, boolean optedOut, Instant updatedAt) {
        String userId = db.jdbc().queryForObject("SELECT user_id FROM notifications WHERE event_id = ? LIMIT 1",
                String.class, eventId);
        db.jdbc().update("INSERT INTO recipient_preferences (user_id, channel, opted_out, updated_at) VALUES (?, ?, ?, ?)",
                userId, channel, optedOut, RecordedEvents.at(updatedAt));
    }

    @Test
    void shouldReadEveryKeyOnceAcrossPagesEvenWhenManyShareOneInstant() {
        // one instant for all (a batch intake's keys can share one): the keyset must break ties by id
        java.util.List<UUID> all = new java.util.ArrayList<>();
        for (int i = 0; i < 7; i++) {
            UUID eventId = events.record(hourAgo, "[\"EMAIL\"]", "EMAIL");
            sent(eventId, "EMAIL");
            all.add(eventId);
        }
        UUID missing = events.record(hourAgo, "[\"EMAIL\",\"PUSH\"]", "EMAIL");
        sent(missing, "EMAIL");
        java.util.Map<String, String> settings = new java.util.HashMap<>(events.settings());
        settings.put("notifier.verify.page-size", "2");

        CommandRun run = CommandRun.run(VerifyCommand::new, settings, "--since", "2d");

        assertThat(run.out()).contains("missing    event " + missing + " channel PUSH")
                .contains("checked 8 inbox key(s) since ").endsWith(" and their rows: 1 finding(s)\n");
        assertThat(run.out().lines().filter(line -> line.startsWith("missing"))).hasSize(1);
        assertThat(all).hasSize(7);
    }

    private CommandRun verify(String... args) {
        return CommandRun.run(VerifyCommand::new, events.settings(), args);
    }
}
