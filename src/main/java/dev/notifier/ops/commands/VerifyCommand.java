package dev.notifier.ops.commands;

import dev.notifier.config.Durations;
import dev.notifier.event.EventParser;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.function.Consumer;

/** {@code verify}: audits the database against what the pipeline promises; exit 1 on any finding. */
public final class VerifyCommand extends OperatorCommand {

    private static final Duration DEFAULT_GRACE = Duration.ofMinutes(10);
    /** How often a long audit says how far it got (on stderr: stdout is the findings and the result). */
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);

    /** "verify: ..." on stderr, at most once per interval. */
    private record Progress(java.io.PrintStream err, Duration every, long[] last) {
        Progress(java.io.PrintStream err, Duration every) {
            this(err, every, new long[] {System.nanoTime()});
        }

        void report(String text) {
            long now = System.nanoTime();
            if (now - last[0] >= every.toNanos()) {
                last[0] = now;
                err.println("verify: " + text);
            }
        }
    }

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
                  --since T     only keys and rows created at or after T (ISO-8601, or an age: 1d);
                                default: all
                Streams: the inbox in keyset pages (notifier.verify.page-size, 1000) with each page's rows,
                so memory stays a page whatever the table's size; progress on stderr every 10 s.
                  --grace AGE   how overdue counts as stuck (30s, 10m, 1h; default 10m)
                """;
    }

    @Override
    protected int execute(CommandLine line) throws Exception {
        line.noPositionals();
        Instant since = line.value("--since", Times::argument).orElse(Instant.EPOCH);
        Duration grace = line.value("--grace", Durations::parse).orElse(DEFAULT_GRACE);

        EventParser parser = new EventParser(properties().eventRules());
        long[] findings = {0};
        Consumer<Finding> report = finding -> {
            findings[0]++;
            out().println(finding);
        };
        Progress progress = new Progress(err(), PROGRESS_EVERY);
        InboxAudit inbox = new InboxAudit(jdbc(), parser, properties().getInt("notifier.verify.page-size", 1000), report,
                progress::report).run(since);
        new RowAudit(jdbc()).stuck(since, Instant.now().minus(grace), report);

        out().println("checked " + inbox.keys() + " inbox key(s)" + (since.equals(Instant.EPOCH) ? "" : " since " + since)
                + " (" + inbox.keysWithoutRows() + " without rows: planned no channel or purged by retention, not checkable) and their rows: "
                + (findings[0] == 0 ? "clean" : findings[0] + " finding(s)"));
        return findings[0] == 0 ? OK : FAILED;
    }
}
