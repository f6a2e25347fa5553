package dev.notifier.ops.commands;

import dev.notifier.config.Durations;
import dev.notifier.inbox.DedupWindow;
import dev.notifier.inbox.InboxPurge;
import java.time.Duration;
import java.util.Set;

/** {@code inbox purge --older-than 30d}: the inbox retention on demand, the same purge the route runs. */
public final class InboxCommand extends OperatorCommand {

    public InboxCommand(CommandEnvironment environment) {
        super(environment, Set.of(), Set.of("--older-than"));
    }

    @Override
    public String name() {
        return "inbox";
    }

    @Override
    public String summary() {
        return "purge --older-than 30d: delete inbox keys older than an age";
    }

    @Override
    protected String usage() {
        return """
                usage: java -jar notifier.jar inbox purge --older-than AGE

                Deletes inbox keys received longer ago than AGE (30d, 12h, ...), in batches of
                notifier.inbox.purge-batch-size, each its own transaction, beside the running service.
                AGE must cover the dedup window, notifier.event.max-past + notifier.event.max-future
                + 1d (367d by default): a key deleted while its record can still be accepted lets that
                record through a second time; a shorter AGE is refused. The service does the same on a
                timer when notifier.inbox.retention is set.
                  --older-than AGE   required
                """;
    }

    @Override
    protected int execute(CommandLine line) throws Exception {
        line.subcommand("purge");
        var rules = properties().eventRules();
        DedupWindow window = new DedupWindow(rules.maxPast(), rules.maxFuture());
        Duration age = line.required("--older-than", text -> window.requireCoveredBy(
                InboxPurge.requireSafeAge(Durations.parse(text)), "--older-than"));
        int batchSize = properties().getInt("notifier.inbox.purge-batch-size", 1000);
        InboxPurge.Purged purged = new InboxPurge(jdbc().getDataSource(), batchSize, null).purgeOlderThan(age);
        out().println("deleted " + purged.keys() + " inbox key(s) received before " + Times.format(purged.cutoff())
                + " in " + purged.batches() + " batch(es) of at most " + batchSize);
        return OK;
    }
}
