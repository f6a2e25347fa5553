package dev.notifier.ops.commands;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.CommandRun;
import dev.notifier.support.DatabaseTestBase;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ResendCommandTest extends DatabaseTestBase {

    private static final Instant LONG_AGO = Instant.parse("2026-11-01T00:00:00Z");

    @Test
    void shouldRequeueFailedRowsKeepingAttemptsAndKeys() {
        UUID failed = events.record(LONG_AGO, "[\"EMAIL\",\"PUSH\"]", "EMAIL", "PUSH");
        failed(failed, "EMAIL", LONG_AGO);
        events.update(failed, "PUSH", "status = 'SENT', attempts = 1");
        Instant before = Instant.now();

        CommandRun run = resend("--failed");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("re-queued 1 FAILED notification(s), each with a fresh budget of 50 attempts and 24h\n");
        assertThat(events.row(failed, "EMAIL"))
                .containsEntry("status", "PENDING")
                .containsEntry("attempts", 4)
                .containsEntry("last_error", "SMTP: reply 550 5.1.1 user unknown")
                .hasEntrySatisfying("next_attempt_at", due -> assertThat(((Timestamp) due).toInstant())
                        .isBetween(before.minusSeconds(1), Instant.now()));
        assertThat(events.row(failed, "PUSH")).containsEntry("status", "SENT");
        assertThat(db.count("SELECT count(*) FROM notifications")).isEqualTo(2);
    }

    @Test
    void shouldStartAFreshBudgetOfAttemptsAndAgeAndNoteItInTheHistory() {
        UUID failed = events.record(LONG_AGO, "[\"EMAIL\"]", "EMAIL");
        failed(failed, "EMAIL", LONG_AGO);
        Instant before = Instant.now();

        resend("--failed");

        // the limits count from the resend, after the 4 attempts already made; the row keeps its history
        assertThat(events.row(failed, "EMAIL")).containsEntry("attempts", 4).containsEntry("budget_attempts", 4)
                .hasEntrySatisfying("budget_from", from -> assertThat(((Timestamp) from).toInstant())
                        .isBetween(before.minusSeconds(1), Instant.now()))
                .hasEntrySatisfying("created_at", created -> assertThat(((Timestamp) created).toInstant()).isEqualTo(LONG_AGO));
        assertThat(db.jdbc().queryForMap("SELECT attempt, outcome, error FROM notification_attempts WHERE event_id = ?", failed))
                .containsEntry("attempt", 4).containsEntry("outcome", "RESENT")
                .containsEntry("error", "re-queued by resend --failed, with a fresh budget of 50 attempts and 24h");
    }

    @Test
    void shouldRequeueOnlyTheGivenChannel() {
        UUID eventId = events.record(LONG_AGO, "[\"EMAIL\",\"PUSH\"]", "EMAIL", "PUSH");
        failed(eventId, "EMAIL", LONG_AGO);
        failed(eventId, "PUSH", LONG_AGO);

        CommandRun run = resend("--failed", "--channel", "push");

        assertThat(run.out()).startsWith("re-queued 1 FAILED notification(s) on PUSH, each with a fresh budget");
        assertThat(events.row(eventId, "PUSH")).containsEntry("status", "PENDING");
        assertThat(events.row(eventId, "EMAIL")).containsEntry("status", "FAILED");
    }

    @Test
    void shouldRequeueOnlyRowsThatFailedSinceTheGivenInstant() {
        Instant cut = Instant.now().minus(Duration.ofHours(1));
        UUID early = events.record(LONG_AGO, "[\"EMAIL\"]", "EMAIL");
        failed(early, "EMAIL", cut.minusSeconds(60));
        UUID late = events.record(LONG_AGO, "[\"EMAIL\"]", "EMAIL");
        failed(late, "EMAIL", cut.plusSeconds(60));

        CommandRun run = resend("--failed", "--since=" + cut);

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("re-queued 1 FAILED notification(s) failed since " + cut);
        assertThat(events.row(late, "EMAIL")).containsEntry("status", "PENDING");
        assertThat(events.row(early, "EMAIL")).containsEntry("status", "FAILED");
    }

    @Test
    void shouldRequireTheFailedFlag() {
        CommandRun run = resend("--channel", "EMAIL");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("resend: --failed is required").contains("usage: java -jar notifier.jar resend");
    }

    @Test
    void shouldRejectBadArgumentsWithUsage() {
        assertThat(resend("--failed", "--channel", "SMS").err()).startsWith("resend: --channel: 'SMS' is not a channel in use (EMAIL, PUSH, LINE)\n");
        assertThat(resend("--failed", "--since", "yesterday").err())
                .startsWith("resend: --since: 'yesterday' is neither an ISO-8601 instant such as 2026-12-02T00:00:00Z nor an age such as 1d\n");
        assertThat(resend("--failed", "--channel").err()).startsWith("resend: --channel needs a value\n");
        CommandRun unknown = resend("--failed", "--all");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).startsWith("resend: unknown option --all\nusage: ");
        assertThat(unknown.out()).isEmpty();
    }

    @Test
    void shouldPrintUsageOnHelp() {
        CommandRun run = resend("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("usage: java -jar notifier.jar resend --failed").contains("--channel").contains("--since");
    }

    @Test
    void shouldFailInOneLineWhenTheDatabaseIsDown() {
        CommandRun run = CommandRun.run(ResendCommand::new, CommandRun.deadDatabase(), "--failed");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("resend: cannot connect to the database").hasLineCount(1);
    }

    private void failed(UUID eventId, String channel, Instant at) {
        events.update(eventId, channel, "status = 'FAILED', attempts = 4, last_error = ?, updated_at = ?",
                "SMTP: reply 550 5.1.1 user unknown", at);
    }

    private CommandRun resend(String... args) {
        return CommandRun.run(ResendCommand::new, events.settings(), args);
    }
}
