package dev.notifier.ops.commands;

import dev.notifier.cli.CommandLine;
import dev.notifier.cli.UsageException;
import dev.notifier.event.Channel;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code resend --failed}: puts FAILED notifications back in the queue once the cause is fixed.
 * The row keeps its attempts and its (event, channel), so the provider sees the same idempotency
 * key as before; the service's retry poller picks it up at once.
 */
public final class ResendCommand extends OperatorCommand {

    public ResendCommand(CommandEnvironment environment) {
        super(environment, Set.of("--failed"), Set.of("--channel", "--since"));
    }

    @Override
    public String name() {
        return "resend";
    }

    @Override
    public String summary() {
        return "--failed [--channel C] [--since T]: re-queue FAILED notifications";
    }

    @Override
    protected String usage() {
        return """
                usage: java -jar notifier.jar resend --failed [--channel C] [--since T]

                Re-queues FAILED notifications: status PENDING, next attempt now. Attempts, event and
                channel stay, so the provider sees the same Idempotency-Key / Message-ID. Prints how
                many rows were re-queued.
                  --failed        required: re-queue the rows in status FAILED
                  --channel C     only this channel (one of notifier.channels: EMAIL, PUSH, LINE, ...)
                  --since T       only rows that failed at or after T (ISO-8601, e.g. 2026-12-02T00:00:00Z)
                """;
    }

    @Override
    protected int execute(CommandLine line) throws Exception {
        line.noPositionals();
        if (!line.flag("--failed")) {
            throw new UsageException("--failed is required (FAILED rows are the only ones resend touches)");
        }
        Optional<Channel> channel = line.value("--channel", this::channelInUse);
        Optional<Instant> since = line.value("--since", Times::argument);

        OffsetDateTime now = Times.parameter(Instant.now());
        StringBuilder sql = new StringBuilder("UPDATE notifications SET status = 'PENDING', next_attempt_at = ?,"
                + " claimed_until = NULL, updated_at = ? WHERE status = 'FAILED'");
        List<Object> args = new ArrayList<>(List.of(now, now));
        channel.ifPresent(c -> {
            sql.append(" AND channel = ?");
            args.add(c.name());
        });
        since.ifPresent(t -> {
            // FAILED is final: the row's last update is the moment it failed
            sql.append(" AND updated_at >= ?");
            args.add(Times.parameter(t));
        });
        int requeued = jdbc().update(sql.toString(), args.toArray());
        out().println("re-queued " + requeued + " FAILED notification(s)"
                + channel.map(c -> " on " + c).orElse("") + since.map(t -> " failed since " + t).orElse(""));
        return OK;
    }
}
