package dev.notifier.bench;

import dev.notifier.processes.KafkaBrokerProcess;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * How close Notifier's inbox stage gets to the database's own ceiling, per event and in batch
 * mode, measured side by side in one run on this machine: pgbench running Notifier's inbox
 * transaction, then the packaged jar on a preloaded topic (a standalone Kafka broker, the
 * PostgreSQL server, recording sinks), end to end, latency at a fixed offered rate, RSS and
 * start-up. Prints a table and, last, one {@code BENCH {json}} line.
 *
 * <p>A measurement, not a timed test: it asserts only that nothing was lost. {@code mvn -B verify
 * -Pbench} runs it at full size (see the README, "Performance"); the default build runs it tiny to
 * prove it works.
 */
class BenchmarkIT {

    @Test
    void measureBothIntakeModesAgainstTheDatabaseCeiling() throws Exception {
        BenchSettings settings = BenchSettings.fromSystemProperties();
        BenchReport report = new BenchReport();
        report.loadAtStart = Machine.load1();
        report.events = settings.events();
        report.duplicates = settings.events() / 10;
        String payload = BenchLoad.storedPayload();
        report.ceiling = PgBench.eventsPerSecond("inbox-transaction.sql", Stage.CONSUMERS, settings.ceilingSeconds(),
                payload, settings.logDir());
        report.leanCeiling = PgBench.eventsPerSecond("inbox-transaction-lean.sql", Stage.CONSUMERS,
                settings.ceilingSeconds(), payload, settings.logDir());
        try (KafkaBrokerProcess kafka = new KafkaBrokerProcess(Files.createTempDirectory("notifier-bench"),
                settings.logDir())) {
            report.perEvent = new ModeRun(kafka, settings, false).run();
            report.batch = new ModeRun(kafka, settings, true).run();
        }
        report.loadAtEnd = Machine.load1();
        report.write();
        System.out.println(report.table());
        System.out.println(report.benchLine());
    }
}
