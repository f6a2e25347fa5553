package dev.notifier.bench;

import dev.notifier.processes.KafkaBrokerProcess;
import dev.notifier.processes.StandardSinks;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How close Notifier's whole pipeline gets to what PostgreSQL alone can do for the same work, per
 * event and in batch mode, measured side by side in one run on this machine: the standard sinks'
 * own capacity, pgbench running the inbox transaction and the whole naive lifecycle of an event,
 * then the packaged jar on a preloaded topic (a standalone Kafka broker, the PostgreSQL server,
 * smtp-sink and nginx), end to end, CPU per notification, latency at a fixed offered rate, RSS and
 * start-up. Prints a table and, last, one {@code BENCH {json}} line.
 *
 * <p>A measurement, not a timed test: it asserts only that nothing was lost. {@code mvn -B verify
 * -Pbench} runs it at full size (see the README, "Performance").
 */
class BenchmarkIT {

    /** The service's senders (notifier.delivery.concurrency): with the consumers, pgbench's clients. */
    static final int SENDERS = 16;

    @Test
    void measureBothIntakeModesAgainstTheDatabaseCeiling() throws Exception {
        BenchSettings settings = BenchSettings.fromSystemProperties();
        BenchReport report = new BenchReport();
        report.loadAtStart = Machine.load1();
        report.launch = settings.script() ? "bin/notifier" : "java " + String.join(" ", settings.jvmOptions())
                + (settings.cds() ? " (class archive)" : "");
        report.events = settings.events();
        report.duplicates = settings.events() / 10;
        try (StandardSinks sinks = new StandardSinks()) {
            report.smtpSink = SinkCapacity.smtp(sinks.smtpPort, SENDERS, Duration.ofSeconds(5),
                    () -> Machine.treeCpuMillis(sinks.smtpPid()));
            report.pushSink = SinkCapacity.push(sinks.pushUrl(), SENDERS, Duration.ofSeconds(5),
                    () -> Machine.treeCpuMillis(sinks.nginxPid()));
        }
        String payload = BenchLoad.storedPayload();
        if (!Boolean.getBoolean("bench.skip-ceilings")) {
            measureCeilings(report, settings, payload);
        }
        try (KafkaBrokerProcess kafka = new KafkaBrokerProcess(Files.createTempDirectory("notifier-bench"),
                settings.logDir())) {
            // as a broker in service: start-up times the consumers' join, not the broker's first group ever
            kafka.awaitGroupCoordinator();
            String modes = System.getProperty("bench.modes", "per-event,batch");
            report.perEvent = modes.contains("per-event") ? new ModeRun(kafka, settings, false).run() : new ModeResult("per-event");
            report.batch = modes.contains("batch") ? new ModeRun(kafka, settings, true).run() : new ModeResult("batch");
        }
        report.loadAtEnd = Machine.load1();
        report.write();
        System.out.println(report.table());
        System.out.println(report.benchLine());
    }

    private static void measureCeilings(BenchReport report, BenchSettings settings, String payload) throws Exception {
        report.inbox = PgBench.measure("inbox-transaction.sql", Stage.CONSUMERS, settings.ceilingSeconds(),
                payload, settings.logDir());
        report.lifecycleClients = Stage.CONSUMERS + SENDERS;
        report.lifecycle = PgBench.measure("lifecycle.sql", report.lifecycleClients,
                settings.ceilingSeconds(), payload, settings.logDir());
    }
}
