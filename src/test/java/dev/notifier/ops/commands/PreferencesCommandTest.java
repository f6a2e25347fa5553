package dev.notifier.ops.commands;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.AdvisedNotifier;
import dev.notifier.support.CommandRun;
import dev.notifier.support.DatabaseTestBase;
import dev.notifier.support.Events;
import dev.notifier.support.RecordingCommit;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Opt-outs written by the operator command, read by the running pipeline's planner. */
class PreferencesCommandTest extends DatabaseTestBase {

    @Test
    void shouldShowAndLiftAnAddressSuppressedByAHardBounce() {
        UUID eventId = UUID.randomUUID();
        db.jdbc().update("INSERT INTO email_suppressions (address, status, diagnostic, bounced_at, event_id) VALUES (?, ?, ?, ?, ?)",
                "gone@example.com", "5.1.1", "550 5.1.1 user unknown",
                java.sql.Timestamp.from(java.time.Instant.parse("2026-12-06T03:00:00Z")), eventId);

        CommandRun shown = preferences("show", "--email", "Gone@Example.com");
        assertThat(shown.exitCode()).isZero();
        assertThat(shown.out()).startsWith("gone@example.com\t").contains("bounced 5.1.1 on 2026-12-06T03:00:00Z (event " + eventId + ")")
                .contains("550 5.1.1 user unknown");

        CommandRun lifted = preferences("unsuppress", "--email", "gone@example.com");
        assertThat(lifted.exitCode()).isZero();
        assertThat(db.count("SELECT count(*) FROM email_suppressions")).isZero();
        assertThat(preferences("show", "--email", "gone@example.com").out()).isEqualTo("gone@example.com\tnot suppressed\n");
        CommandRun again = preferences("unsuppress", "--email", "gone@example.com");
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("is not suppressed");
        assertThat(preferences("unsuppress", "--email", "gone@example.com", "--user", "u-1").exitCode()).isEqualTo(2);
        assertThat(preferences("show", "--email", "no-at-sign").err()).contains("is not an email address");
    }

    @Test
    void shouldDropAnOptedOutChannelFromTheNextEventAndBringItBackAfterOptIn() throws Exception {
        UUID before = UUID.randomUUID();
        String user = Events.userIdOf(before);
        UUID after = UUID.nameUUIDFromBytes(before.toString().getBytes()); // a different event id
        UUID optedBackIn = UUID.randomUUID();
        try (AdvisedNotifier notifier = AdvisedNotifier.start(db).startRoutes()) {
            CommandRun out = preferences("opt-out", "--user", user, "--channel", "push");
            assertThat(out.exitCode()).isZero();
            assertThat(out.out()).isEqualTo(user + " is opted out of PUSH for events that leave the channels to Notifier\n");

            notifier.send(Events.json(before, "en", null).replace(Events.userIdOf(before), user), 1, RecordingCommit.counting());
            // an event that names its channels still gets them
            notifier.send(Events.json(after, "en", "[\"EMAIL\",\"PUSH\"]").replace(Events.userIdOf(after), user), 2,
                    RecordingCommit.counting());

            assertThat(preferences("opt-in", "--user", user, "--channel", "PUSH").exitCode()).isZero();
            notifier.send(Events.json(optedBackIn, "en", null).replace(Events.userIdOf(optedBackIn), user), 2,
                    RecordingCommit.counting());
        }
        assertThat(db.channelsOf(before)).containsExactly("EMAIL");
        assertThat(db.channelsOf(after)).containsExactly("EMAIL", "PUSH");
        assertThat(db.channelsOf(optedBackIn)).containsExactly("EMAIL", "PUSH");
    }

    @Test
    void shouldShowEveryChannelInUseWithTheRecipientsChoice() {
        preferences("opt-out", "--user", "u-42", "--channel", "LINE");
        preferences("opt-out", "--user", "u-42", "--channel", "EMAIL");
        preferences("opt-in", "--user", "u-42", "--channel", "EMAIL");

        CommandRun show = preferences("show", "--user", "u-42");

        assertThat(show.exitCode()).isZero();
        assertThat(show.out().lines()).hasSize(3);
        assertThat(show.out().lines().toList().get(0)).startsWith("EMAIL\topted in\tsince ");
        assertThat(show.out().lines().toList().get(1)).isEqualTo("PUSH\topted in");
        assertThat(show.out().lines().toList().get(2)).startsWith("LINE\topted out\tsince ");
        assertThat(db.count("SELECT count(*) FROM recipient_preferences WHERE user_id = 'u-42'")).isEqualTo(2);
    }

    @Test
    void shouldRefuseWhatItCannotWriteWithUsage() {
        assertThat(preferences("opt-out", "--user", "u-42", "--channel", "SMS").err())
                .startsWith("preferences: --channel: 'SMS' is not a channel in use (EMAIL, PUSH, LINE)\n");
        assertThat(preferences("opt-out", "--user", "u-42").err()).startsWith("preferences: --channel is required\n");
        assertThat(preferences("mute", "--user", "u-42").err()).startsWith("preferences: unknown action 'mute'");
        assertThat(preferences("opt-out", "--user", "u-\n42", "--channel", "PUSH").exitCode()).isEqualTo(2);
        assertThat(preferences("show").exitCode()).isEqualTo(2);
        assertThat(db.count("SELECT count(*) FROM recipient_preferences")).isZero();
    }

    @Test
    void shouldFailInOneLineWhenTheDatabaseIsDown() {
        CommandRun run = CommandRun.run(PreferencesCommand::new, CommandRun.deadDatabase(), "show", "--user", "u-42");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("preferences: cannot connect to the database: ").endsWith("\n").hasLineCount(1);
    }

    private CommandRun preferences(String... args) {
        return CommandRun.run(PreferencesCommand::new, events.settings(), args);
    }
}
