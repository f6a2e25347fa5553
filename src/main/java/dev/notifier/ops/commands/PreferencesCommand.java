package dev.notifier.ops.commands;

import dev.notifier.bounce.Suppressions;
import dev.notifier.event.Channel;
import dev.notifier.event.ColumnLimits;
import dev.notifier.event.UntrustedText;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code preferences opt-out|opt-in|show --user U [--channel C]}: writes what the planner reads in
 * {@code recipient_preferences}. An opt-out drops the channel from the events that leave the choice
 * of channels to Notifier, from the next event on; an event that names its channels gets them
 * (the producer decided, e.g. for a legally required notice). Rows already planned stay as they are.
 */
public final class PreferencesCommand extends OperatorCommand {

    private static final String UPSERT = "INSERT INTO recipient_preferences (user_id, channel, opted_out, updated_at)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT (user_id, channel) DO UPDATE SET opted_out = EXCLUDED.opted_out,"
            + " updated_at = EXCLUDED.updated_at";

    public PreferencesCommand(CommandEnvironment environment) {
        super(environment, Set.of(), Set.of("--user", "--channel", "--email"));
    }

    @Override
    public String name() {
        return "preferences";
    }

    @Override
    public String summary() {
        return "opt-out|opt-in|show --user U [--channel C]: a recipient's channel opt-outs; show|unsuppress --email A";
    }

    @Override
    protected String usage() {
        return """
                usage: java -jar notifier.jar preferences opt-out --user U --channel C
                       java -jar notifier.jar preferences opt-in  --user U --channel C
                       java -jar notifier.jar preferences show    --user U
                       java -jar notifier.jar preferences show    --email A
                       java -jar notifier.jar preferences unsuppress --email A

                A recipient's opt-outs, by recipient.userId and channel. From the next event on, an
                opted-out channel is left out of the events that leave the choice of channels to
                Notifier (no "channels" field); an event that names its channels still gets them.
                Notifications already recorded are not changed.
                  --user U      required: the recipient's userId, as events carry it
                  --channel C   a channel in use (notifier.channels: EMAIL, PUSH, LINE, ...)

                An email address that bounced for good (a 5.x.x delivery status notification read
                from the bounce mailbox) is suppressed: emails to it are FAILED at once, the relay not
                asked, for notifier.bounces.suppress-days. show --email tells whether it is and why;
                unsuppress --email lifts it (the customer fixed the mailbox). Exit 1 when there was none.
                  --email A     the address, as events carry it (compared without case)
                """;
    }

    @Override
    protected int execute(CommandLine line) throws Exception {
        String action = line.single("action (opt-out, opt-in, show or unsuppress)");
        java.util.Optional<String> email = line.value("--email", PreferencesCommand::email);
        if (email.isPresent() || action.equals("unsuppress")) {
            if (line.value("--user", text -> text).isPresent() || line.value("--channel", text -> text).isPresent()) {
                throw new UsageException("--email goes alone, without --user or --channel");
            }
            return suppression(action, line.required("--email", PreferencesCommand::email));
        }
        String user = line.required("--user", PreferencesCommand::user);
        switch (action) {
            case "opt-out", "opt-in" -> {
                Channel channel = line.required("--channel", this::channelInUse);
                boolean optOut = action.equals("opt-out");
                OffsetDateTime now = Times.parameter(Instant.now());
                jdbc().update(UPSERT, user, channel.name(), optOut, now);
                out().println(user + " is " + (optOut ? "opted out of " : "opted in to ") + channel
                        + " for events that leave the channels to Notifier");
                return OK;
            }
            case "show" -> {
                if (line.value("--channel", text -> text).isPresent()) {
                    throw new UsageException("show takes no --channel");
                }
                show(user);
                return OK;
            }
            default -> throw new UsageException("unknown action '" + action + "' (opt-out, opt-in or show)");
        }
    }

    private void show(String user) {
        List<Map<String, Object>> rows = jdbc().queryForList(
                "SELECT channel, opted_out, updated_at FROM recipient_preferences WHERE user_id = ? ORDER BY channel", user);
        List<Channel> inUse = properties().channels().channels();
        for (Channel channel : inUse) {
            Map<String, Object> row = rows.stream().filter(r -> channel.name().equals(r.get("channel"))).findFirst().orElse(null);
            boolean optedOut = row != null && Boolean.TRUE.equals(row.get("opted_out"));
            out().println(channel + "\t" + (optedOut ? "opted out" : "opted in")
                    + (row == null ? "" : "\tsince " + Times.format(((java.sql.Timestamp) row.get("updated_at")).toInstant())));
        }
    }

    private int suppression(String action, String address) throws UsageException {
        String key = Suppressions.normalised(address);
        switch (action) {
            case "show" -> {
                List<Map<String, Object>> rows = jdbc().queryForList(
                        "SELECT status, diagnostic, bounced_at, event_id FROM email_suppressions WHERE address = ?", key);
                if (rows.isEmpty()) {
                    out().println(key + "\tnot suppressed");
                    return OK;
                }
                Map<String, Object> row = rows.get(0);
                Instant bounced = ((java.sql.Timestamp) row.get("bounced_at")).toInstant();
                long days = properties().getLong("notifier.bounces.suppress-days", 30);
                boolean lasting = days > 0 && bounced.isAfter(Instant.now().minus(java.time.Duration.ofDays(days)));
                out().println(key + "\t" + (lasting ? "suppressed" : "no longer suppressed (older than notifier.bounces.suppress-days)")
                        + "\tbounced " + row.get("status") + " on " + Times.format(bounced) + " (event " + row.get("event_id") + ")"
                        + (row.get("diagnostic") == null ? "" : "\t" + row.get("diagnostic")));
                return OK;
            }
            case "unsuppress" -> {
                if (!Suppressions.lift(jdbc(), key)) {
                    err().println(name() + ": " + key + " is not suppressed");
                    return FAILED;
                }
                out().println(key + " is no longer suppressed: the next email to it goes to the relay");
                return OK;
            }
            default -> throw new UsageException("with --email: show or unsuppress, not '" + action + "'");
        }
    }

    private static String email(String text) {
        if (text.isBlank() || text.length() > 320 || UntrustedText.hasControl(text) || !text.contains("@")) {
            throw new IllegalArgumentException("'" + UntrustedText.oneLine(text, 60) + "' is not an email address");
        }
        return text;
    }

    private static String user(String text) {
        if (text.isBlank() || text.length() > ColumnLimits.USER_ID || UntrustedText.hasControl(text)) {
            throw new IllegalArgumentException("'" + UntrustedText.oneLine(text, 60) + "' is not a userId");
        }
        return text;
    }
}
