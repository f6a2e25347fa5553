package dev.notifier.ops.commands;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.CommandRun;
import dev.notifier.support.DatabaseTestBase;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StatusCommandTest extends DatabaseTestBase {

    @Test
    void shouldShowTheInboxKeyAndEveryChannelsRow() {
        Instant received = Instant.parse("2026-12-02T10:15:31.250Z");
        UUID eventId = events.record(received, "[\"EMAIL\",\"PUSH\"]", "EMAIL", "PUSH");
        events.update(eventId, "EMAIL", "status = 'SENT', attempts = 1, sent_at = ?", Instant.parse("2026-12-02T10:15:32Z"));
        events.update(eventId, "PUSH", "status = 'SENDING', attempts = 3, last_error = ?, claimed_until = ?, next_attempt_at = ?",
                "push gateway answered HTTP 503", Instant.parse("2026-12-02T10:20:00Z"), Instant.parse("2026-12-02T10:19:00Z"));

        CommandRun run = status(eventId.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("event " + eventId)
                .contains("received: 2026-12-02T10:15:31.250Z (inbox key of record-event)")
                .containsPattern("EMAIL +SENT +attempts 1")
                .contains("sent 2026-12-02T10:15:32Z")
                .containsPattern("PUSH +SENDING +attempts 3")
                .contains("next attempt 2026-12-02T10:19:00Z, claimed until 2026-12-02T10:20:00Z, sent -")
                .contains("last error: push gateway answered HTTP 503")
                .contains("created 2026-12-02T10:15:31.250Z");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void shouldShowEachAttemptWithTheProviderThatAnsweredIt() {
        UUID eventId = events.record(Instant.now(), "[\"PUSH\"]", "PUSH");
        events.update(eventId, "PUSH", "status = 'SENT', attempts = 2, sent_at = ?", Instant.parse("2026-12-02T10:16:00Z"));
        String attempt = "INSERT INTO notification_attempts (event_id, channel, attempt, outcome, error, finished_at,"
                + " claim_token, claim_lost, provider) VALUES (?, 'PUSH', ?, ?, ?, ?, ?, ?, ?)";
        db.jdbc().update(attempt, eventId, 1, "RETRY", "push gateway push-primary did not answer within 5s",
                java.sql.Timestamp.from(Instant.parse("2026-12-02T10:15:40Z")), UUID.randomUUID().toString(), false, "push-primary");
        db.jdbc().update(attempt, eventId, 2, "SENT", null,
                java.sql.Timestamp.from(Instant.parse("2026-12-02T10:16:00Z")), UUID.randomUUID().toString(), false, "push-fallback");
        db.jdbc().update(attempt, eventId, 2, "SENT", null,
                java.sql.Timestamp.from(Instant.parse("2026-12-02T10:16:01Z")), UUID.randomUUID().toString(), true, null);

        String out = status(eventId.toString()).out();

        assertThat(out).contains("attempt 1 2026-12-02T10:15:40Z RETRY via push-primary: push gateway push-primary did not answer within 5s")
                .contains("attempt 2 2026-12-02T10:16:00Z SENT via push-fallback\n")
                .contains("attempt 2 2026-12-02T10:16:01Z SENT (claim taken over: not the row's outcome)\n");
        assertThat(out.indexOf("via push-primary")).isGreaterThan(out.indexOf("PUSH   SENT"));
    }

    @Test
    void shouldSayWhenAKnownEventPlannedNoChannel() {
        UUID eventId = events.record(Instant.now(), "[]");

        CommandRun run = status(eventId.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("inbox key of record-event").contains("no notification rows");
    }

    @Test
    void shouldShowRowsWhoseInboxKeyWasPurged() {
        UUID eventId = events.record(Instant.now(), "[\"PUSH\"]", "PUSH");
        db.jdbc().update("DELETE FROM inbox");

        CommandRun run = status(eventId.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("received: no inbox key").containsPattern("PUSH +PENDING");
    }

    @Test
    void shouldFailOnAnUnknownEvent() {
        UUID unknown = UUID.randomUUID();

        CommandRun run = status(unknown.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("status: event " + unknown + " is unknown: no inbox key, no notification row\n");
    }

    @Test
    void shouldRejectAMalformedEventIdWithUsage() {
        CommandRun run = status("TRX-000123");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("status: 'TRX-000123' is not an event id (a UUID)\nusage: ");
    }

    @Test
    void shouldRejectAMissingOrSecondEventId() {
        assertThat(status().err()).startsWith("status: missing <eventId>\n");
        CommandRun two = status(UUID.randomUUID().toString(), "extra");
        assertThat(two.exitCode()).isEqualTo(2);
        assertThat(two.err()).startsWith("status: unexpected argument 'extra'\n");
    }

    @Test
    void shouldPrintUsageOnHelp() {
        CommandRun run = status("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("usage: java -jar notifier.jar status <eventId>");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void shouldFailInOneLineWhenTheDatabaseIsDown() {
        CommandRun run = CommandRun.run(StatusCommand::new, CommandRun.deadDatabase(), UUID.randomUUID().toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("status: cannot connect to the database: Connection to 127.0.0.1:1 refused")
                .hasLineCount(1);
    }

    private CommandRun status(String... args) {
        return CommandRun.run(StatusCommand::new, events.settings(), args);
    }
}
