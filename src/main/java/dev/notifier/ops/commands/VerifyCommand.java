package dev.notifier.ops.commands;

import dev.notifier.cli.CommandLine;
import dev.notifier.config.Durations;
import dev.notifier.event.EventParser;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code verify}: audits the database against what the pipeline promises; exit 1 on any finding. */
public final class VerifyCommand extends OperatorCommand {

    private static final Duration DEFAULT_GRACE = Duration.ofMinutes(10);

    public VerifyCommand(CommandEnvironment environment) {
        super(environment, Set.of(), Set.of("--since", "--grace"));
    }

    @Override
    public String name() {
        return "verify";
    }

    @Override
    public String summary() {
        return "[--since T] [--grace 10m]: audit the database, exit 1 on findings";
    }

    @Override
    protected String usage() {
        return """
                usage: java -jar notifier.jar verify [--since T] [--grace AGE]

                Audits the database and prints what it finds; exit 0 when clean, 1 on any finding:
                  missing     an inbox key of record-event lacks the row of a channel that the
                              ChannelPlanner, re-run on the payload stored with its other rows, plans
                  duplicate   more than one row for one (event, channel)
                  stuck       SENDING whose claim expired more than AGE ago (or has none), or
                              PENDING due for more than AGE
                  unreadable  a stored payload that no longer parses
                Not findings: an inbox key without any row (an event may plan no channel, and only its
                rows store the payload to tell), and a missing channel whose recipient preference
                changed after the event was received. Those keys are counted in the summary.
                  --since T     only keys and rows created at or after T (ISO-8601); default: all
                  --grace AGE   how overdue counts as stuck (30s, 10m, 1h; default 10m)
                """;
    }

    @Override
    protected int execute(CommandLine line) throws Exception {
        line.noPositionals();
        Instant since = line.value("--since", Times::argument).orElse(Instant.EPOCH);
        Duration grace = line.value("--grace", Durations::parse).orElse(DEFAULT_GRACE);

        EventParser parser = new EventParser(properties().eventRules());
        InboxAudit inbox = new InboxAudit(jdbc(), parser).run(since);
        RowAudit rows = new RowAudit(jdbc());
        List<Finding> findings = new ArrayList<>(inbox.findings());
        findings.addAll(rows.duplicates(since));
        findings.addAll(rows.stuck(since, Instant.now().minus(grace)));

        findings.forEach(out()::println);
        out().println("checked " + inbox.keys() + " inbox key(s)" + (since.equals(Instant.EPOCH) ? "" : " since " + since)
                + " (" + inbox.keysWithoutRows() + " without rows: planned no channel or purged by retention, not checkable) and their rows: "
                + (findings.isEmpty() ? "clean" : findings.size() + " finding(s)"));
        return findings.isEmpty() ? OK : FAILED;
    }
}
