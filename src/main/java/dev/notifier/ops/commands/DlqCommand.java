package dev.notifier.ops.commands;

import dev.notifier.config.KafkaClientSettings;
import dev.notifier.config.ServiceProperties;
import java.util.Set;

/** {@code dlq replay}: sends dead-lettered records back through the pipeline once their cause is fixed. */
public final class DlqCommand extends OperatorCommand {

    public DlqCommand(CommandEnvironment environment) {
        super(environment, Set.of(), Set.of("--limit"));
    }

    @Override
    public String name() {
        return "dlq";
    }

    @Override
    public String summary() {
        return "replay [--limit N]: re-publish DLQ records to the main topic";
    }

    @Override
    protected String usage() {
        return """
                usage: java -jar notifier.jar dlq replay [--limit N]

                Re-publishes the records in NOTIFIER_DLQ_TOPIC to NOTIFIER_KAFKA_TOPIC, after the producer
                fixed them or a bug was fixed: the original value, key and headers, without notifier-error
                and notifier-source. The DLQ is read by the consumer group <NOTIFIER_KAFKA_GROUP>-dlq-replay,
                which commits each record only after the main topic acknowledged it: a record is replayed
                once, and a second run replays only what was dead-lettered since. Valid events that were
                already recorded are dropped by the inbox as duplicates. A record that was cut to fit the
                DLQ (header notifier-truncated) is skipped and counted: only its producer has it whole.
                A record dead-lettered longer ago than notifier.inbox.retention is refused and counted:
                the inbox may have forgotten its event, and replaying it could deliver it twice. A
                producer's header named notifier-* is kept in the DLQ as producer:notifier-* and
                replayed under its own name.
                Run one replay at a time.
                  --limit N   replay at most N records (default: all there are now)
                """;
    }

    @Override
    protected int execute(CommandLine line) throws Exception {
        line.subcommand("replay");
        int limit = line.value("--limit", DlqCommand::positive).orElse(Integer.MAX_VALUE);
        ServiceProperties p = properties();
        String dlqTopic = p.get("notifier.kafka.dlq-topic");
        String mainTopic = p.get("notifier.kafka.topic");
        String group = p.get("notifier.kafka.group") + "-dlq-replay";
        java.time.Duration inboxRetention = p.findDuration("notifier.inbox.retention").orElse(null);
        DlqReplay.Result result = new DlqReplay(KafkaClientSettings.from(p::find), dlqTopic, mainTopic, group,
                inboxRetention).replay(limit);
        out().println("replayed " + result.replayed() + " record(s) from " + dlqTopic + " to " + mainTopic
                + " (group " + group + ")" + (result.replayed() == limit ? "; limit reached, run again for more" : ""));
        if (result.refusedTooOld() > 0) {
            out().println("refused " + result.refusedTooOld() + " record(s) dead-lettered longer ago than"
                    + " notifier.inbox.retention (" + inboxRetention.toDays() + "d): the inbox may have forgotten"
                    + " their events, and a replay could deliver one a second time");
        }
        if (result.skippedTruncated() > 0) {
            out().println("skipped " + result.skippedTruncated() + " record(s) the DLQ holds only in part"
                    + " (header notifier-truncated): their producer must send them again");
        }
        return OK;
    }

    private static int positive(String text) {
        try {
            int value = Integer.parseInt(text);
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // the message below says what is expected
        }
        throw new IllegalArgumentException("'" + text + "' is not a positive whole number");
    }
}
