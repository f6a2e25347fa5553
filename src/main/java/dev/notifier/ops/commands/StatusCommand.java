package dev.notifier.ops.commands;

import dev.notifier.ops.EventHistory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** {@code status <eventId>}: one event's whole history, from its inbox key to each channel's row. */
public final class StatusCommand extends OperatorCommand {

    public StatusCommand(CommandEnvironment environment) {
        super(environment, Set.of(), Set.of());
    }

    @Override
    public String name() {
        return "status";
    }

    @Override
    public String summary() {
        return "<eventId>: one event's history, its inbox key and each channel's row";
    }

    @Override
    protected String usage() {
        return """
                usage: java -jar notifier.jar status <eventId>

                Shows one event as the database has it: when it was received (its inbox key) and, per
                channel, the notification's status, attempts, last error and timestamps (created, next
                attempt, claimed until, sent), then each of its attempts: when it ended, how, through
                which provider (e.g. "via push-fallback" after a failover), its trace id when tracing
                was on (OTEL_EXPORTER_OTLP_ENDPOINT) and its error.
                Exit 0 when the event is known, 1 when it is not.
                """;
    }

    @Override
    protected int execute(CommandLine line) throws Exception {
        String text = line.single("<eventId>");
        UUID eventId;
        try {
            eventId = UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException("'" + text + "' is not an event id (a UUID)");
        }
        List<String> received = jdbc().query(
                "SELECT processor_name, created_at FROM inbox WHERE message_id = ? ORDER BY processor_name",
                (rs, i) -> Times.format(Times.column(rs, "created_at")) + " (inbox key of " + rs.getString("processor_name") + ")",
                eventId.toString());
        List<Row> rows = jdbc().query("""
                SELECT channel, status, attempts, last_error, transfer_id, user_id,
                       created_at, next_attempt_at, claimed_until, sent_at
                FROM notifications WHERE event_id = ? ORDER BY channel, id""",
                (rs, i) -> new Row(rs.getString("channel"), String.format("%-6s %-8s attempts %d, transfer %s, user %s%n"
                                + "       created %s, next attempt %s, claimed until %s, sent %s%n"
                                + "       last error: %s",
                        rs.getString("channel"), rs.getString("status"), rs.getInt("attempts"),
                        rs.getString("transfer_id"), rs.getString("user_id"),
                        Times.format(Times.column(rs, "created_at")), Times.format(Times.column(rs, "next_attempt_at")),
                        Times.format(Times.column(rs, "claimed_until")), Times.format(Times.column(rs, "sent_at")),
                        rs.getString("last_error") == null ? "-" : rs.getString("last_error"))),
                eventId);
        if (received.isEmpty() && rows.isEmpty()) {
            err().println(name() + ": event " + eventId + " is unknown: no inbox key, no notification row");
            return FAILED;
        }
        out().println("event " + eventId);
        out().println("received: " + (received.isEmpty()
                ? "no inbox key (purged by the inbox retention, or never recorded through the inbox)"
                : String.join("; ", received)));
        if (rows.isEmpty()) {
            out().println("no notification rows: the event planned no channel (none named, no address, or all opted out), or its rows were purged by retention");
        }
        Map<String, List<String>> attempts = attempts(eventId);
        rows.forEach(row -> {
            out().println(row.text());
            attempts.getOrDefault(row.channel(), List.of()).forEach(out()::println);
        });
        return OK;
    }

    private record Row(String channel, String text) {
    }

    /** Each channel's attempts in the order they ended, one line each, naming the provider that answered. */
    private Map<String, List<String>> attempts(UUID eventId) {
        Map<String, List<String>> byChannel = new LinkedHashMap<>();
        // the status page's own read of the history, so both show the same attempts in the same order
        jdbc().query(EventHistory.ATTEMPTS,
                rs -> {
                    String provider = rs.getString("provider");
                    String error = rs.getString("error");
                    String trace = rs.getString("trace_id");
                    byChannel.computeIfAbsent(rs.getString("channel"), c -> new ArrayList<>()).add(String.format(
                            "       attempt %d %s %s%s%s%s%s", rs.getInt("attempt"),
                            Times.format(Times.column(rs, "finished_at")), rs.getString("outcome"),
                            provider == null ? "" : " via " + provider,
                            trace == null ? "" : " trace " + trace,
                            rs.getBoolean("claim_lost") ? " (claim taken over: not the row's outcome)" : "",
                            error == null ? "" : ": " + error));
                }, eventId);
        return byChannel;
    }
}
