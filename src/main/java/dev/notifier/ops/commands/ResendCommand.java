package dev.notifier.ops.commands;

import dev.notifier.delivery.DeliverySchedule;
import dev.notifier.event.Channel;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code resend --failed}: puts FAILED notifications back in the queue once the cause is fixed. The
 * row keeps its attempts and its (event, channel), so the provider sees the same idempotency key as
 * before; the service's retry poller picks it up at once. Each starts a fresh budget of attempts and
 * age (notifier.delivery.max-attempts, max-age count from the resend), recorded in its history: a row
 * that failed because its relay was down for a day would otherwise be expired again, unsent.
 */
public final class ResendCommand extends OperatorCommand {

    private static final String HISTORY = "INSERT INTO notification_attempts"
            + " (event_id, channel, attempt, outcome, error, finished_at) VALUES (?, ?, ?, 'RESENT', ?, ?)";

    public ResendCommand(CommandEnvironment environment) {
        super(environment, Set.of("--failed"), Set.of("--channel", "--since"));
    }

    @Override
    public String name() {
        return "resend";
    }

    @Override
    public String summary() {
        return "--failed [--channel C] [--since T]: re-queue FAILED notifications, each with a fresh budget";
    }

    @Override
    protected String usage() {
        return """
                usage: java -jar notifier.jar resend --failed [--channel C] [--since T]

                Re-queues FAILED notifications: status PENDING, next attempt now, and a fresh budget of
                attempts and age (notifier.delivery.max-attempts and max-age count from now), noted in each
                one's history. Attempts, event and channel stay, so the provider sees the same
                Idempotency-Key / Message-ID. Prints how many rows were re-queued.
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
        String budget = properties().getInt("notifier.delivery.max-attempts", DeliverySchedule.DEFAULT_MAX_ATTEMPTS)
                + " attempts and " + properties().findDuration("notifier.delivery.max-age").orElse(DeliverySchedule.DEFAULT_MAX_AGE)
                .toString().substring(2).toLowerCase(Locale.ROOT);

        OffsetDateTime now = Times.parameter(Instant.now());
        StringBuilder sql = new StringBuilder("UPDATE notifications SET status = 'PENDING', next_attempt_at = ?,"
                + " claimed_until = NULL, updated_at = ?, budget_from = ?, budget_attempts = attempts WHERE status = 'FAILED'");
        List<Object> args = new ArrayList<>(List.of(now, now, now));
        channel.ifPresent(c -> {
            sql.append(" AND channel = ?");
            args.add(c.name());
        });
        since.ifPresent(t -> {
            // FAILED is final: the row's last update is the moment it failed
            sql.append(" AND updated_at >= ?");
            args.add(Times.parameter(t));
        });
        sql.append(" RETURNING event_id, channel, attempts");
        int requeued = transactions().execute(status -> {
            List<Object[]> history = jdbc().query(sql.toString(), (rs, i) -> new Object[] {rs.getObject("event_id"),
                    rs.getString("channel"), rs.getInt("attempts"), "re-queued by resend --failed, with a fresh budget of "
                    + budget, now}, args.toArray());
            if (!history.isEmpty()) {
                jdbc().batchUpdate(HISTORY, history);
            }
            return history.size();
        });
        out().println("re-queued " + requeued + " FAILED notification(s)"
                + channel.map(c -> " on " + c).orElse("") + since.map(t -> " failed since " + t).orElse("")
                + (requeued > 0 ? ", each with a fresh budget of " + budget : ""));
        return OK;
    }
}
