package dev.notifier.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.notifier.processes.KafkaBrokerProcess;
import dev.notifier.processes.NotifierInstance;
import dev.notifier.processes.RecordingSinks;
import dev.notifier.support.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Nothing lost, nothing twice, under crashes, outages, bad input and several instances: record what
 * goes in, inject faults, heal, read everything back, compare sets.
 *
 * <p>{@code -Dfaults.scenarios=1,6,7,8} (the CI default) or {@code all}; {@code -Dfaults.scale=full}
 * for the full sizes; {@code -Dfaults.batch=true} to run the instances with the batch intake. Run by
 * failsafe after the jar is packaged: {@code mvn -B verify}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultInjectionIT {

    private static final Set<String> SCENARIOS = Arrays.stream(System.getProperty("faults.scenarios", "1,6,7,8")
            .split(",")).map(String::trim).collect(Collectors.toSet());
    private static final boolean FULL = "full".equals(System.getProperty("faults.scale", "ci"));
    private static final Duration SETTLE = Duration.ofSeconds(FULL ? 300 : 180);
    static final boolean BATCH = Boolean.getBoolean("faults.batch");

    private static KafkaBrokerProcess kafka;
    private static final FaultReport REPORT = new FaultReport();

    @BeforeAll
    static void startBroker() throws Exception {
        Path work = Files.createTempDirectory("notifier-faults");
        kafka = new KafkaBrokerProcess(work, Path.of("target", "fault-logs"));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        System.out.println("\n=== Fault-injection summary (" + (FULL ? "full" : "ci") + " scale, "
                + (BATCH ? "batch" : "per-event") + " intake) ===\n" + REPORT.table()
                + "written to " + FaultReport.FILE);
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    @Order(1)
    void duplicateStormWithoutFaults() throws Exception {
        assumeTrue(selected("1"));
        try (ScenarioRun run = new ScenarioRun("1-duplicate-storm", kafka)) {
            EventPlan plan = EventPlan.of(run.topic, 1L, FULL ? 2000 : 300, false);
            run.launch();
            run.publish(plan, 2000).get();
            run.awaitSettled(plan, SETTLE);
            assertClean(run.outcome(plan, "none"), true);
        }
    }

    @Test
    @Order(2)
    void killMinus9FiveTimes() throws Exception {
        assumeTrue(selected("2"));
        try (ScenarioRun run = new ScenarioRun("2-kill-9-x5", kafka)) {
            EventPlan plan = EventPlan.of(run.topic, 2L, FULL ? 2000 : 500, false);
            NotifierInstance instance = run.launch();
            CompletableFuture<Void> publishing = run.publish(plan, FULL ? 150 : 100);
            Random random = new Random(2L);
            for (int crash = 0; crash < 5; crash++) {
                holdFault(Duration.ofMillis(2000 + random.nextInt(3000)));
                instance.crashAndRestart();
            }
            publishing.get();
            run.awaitSettled(plan, SETTLE);
            // re-sends are allowed here, each with the same key, and reported with their cause
            assertClean(run.outcome(plan, "kill -9 at 5 random moments, restart each"), false);
        }
    }

    @Test
    @Order(3)
    void postgresRestartedThenDownFor20Seconds() throws Exception {
        assumeTrue(selected("3"));
        // restarted with pg_ctlcluster: the machine's own cluster, not an embedded server
        assumeTrue(TestPostgres.isMachineServer(), "scenario 3 needs the machine's PostgreSQL cluster");
        try (ScenarioRun run = new ScenarioRun("3-postgres-restart-and-outage", kafka)) {
            EventPlan plan = EventPlan.of(run.topic, 3L, FULL ? 2000 : 600, false);
            // mid-stream: the instance is up and working when the database goes (an instance that
            // cannot reach its database while starting exits, and is restarted by its supervisor)
            NotifierInstance instance = run.launch().awaitStarted();
            CompletableFuture<Void> publishing = run.publish(plan, FULL ? 100 : 60);
            holdFault(Duration.ofSeconds(3));
            long outageCpu;
            try {
                PostgresServer.restart();
                holdFault(Duration.ofSeconds(3));
                long cpuBefore = instance.cpuMillis();
                PostgresServer.stop();
                holdFault(Duration.ofSeconds(20));
                outageCpu = instance.cpuMillis() - cpuBefore;
            } finally {
                // never leave the machine's database down for the scenarios and tests after this one
                PostgresServer.start();
            }
            publishing.get();
            run.awaitSettled(plan, SETTLE);
            REPORT.extra("3: instance CPU during the 20 s database outage (ms)", outageCpu);
            assertThat(instance.isAlive()).as("recovered by itself, no restart").isTrue();
            assertThat(outageCpu).as("CPU ms burnt during a 20 s outage (no hot spin)").isLessThan(10_000);
            assertClean(run.outcome(plan, "PostgreSQL restarted; then down 20 s (CPU " + outageCpu + " ms)"), false);
        }
    }

    @Test
    @Order(4)
    void pushAndSmtpOutagesOf30Seconds() throws Exception {
        assumeTrue(selected("4"));
        try (ScenarioRun run = new ScenarioRun("4-push-and-smtp-outage", kafka)) {
            EventPlan plan = EventPlan.of(run.topic, 4L, FULL ? 2000 : 500, false);
            run.launch();
            CompletableFuture<Void> publishing = run.publish(plan, FULL ? 100 : 50);
            holdFault(Duration.ofSeconds(2));
            run.sinks.stopSmtp();
            run.sinks.pushMode(RecordingSinks.PushMode.UNAVAILABLE);
            holdFault(Duration.ofSeconds(15));
            run.sinks.pushMode(RecordingSinks.PushMode.TIMEOUT);
            holdFault(Duration.ofSeconds(15));
            run.sinks.pushMode(RecordingSinks.PushMode.OK);
            run.sinks.startSmtp();
            publishing.get();
            run.awaitSettled(plan, SETTLE);
            assertClean(run.outcome(plan, "push 503 15 s + timeouts 15 s; SMTP refusing 30 s"), true);
        }
    }

    @Test
    @Order(5)
    void kafkaBrokerRestartedMidStream() throws Exception {
        assumeTrue(selected("5"));
        try (ScenarioRun run = new ScenarioRun("5-kafka-broker-restart", kafka)) {
            EventPlan plan = EventPlan.of(run.topic, 5L, FULL ? 2000 : 500, false);
            run.launch();
            CompletableFuture<Void> publishing = run.publish(plan, FULL ? 100 : 60);
            holdFault(Duration.ofSeconds(4));
            kafka.restart(true);
            publishing.get();
            run.awaitSettled(plan, SETTLE);
            assertClean(run.outcome(plan, "broker kill -9 and restart mid-stream"), true);
        }
    }

    @Test
    @Order(6)
    void threeInstancesOneKilledOneAdded() throws Exception {
        assumeTrue(selected("6"));
        try (ScenarioRun run = new ScenarioRun("6-three-instances-rebalance", kafka)) {
            EventPlan plan = EventPlan.of(run.topic, 6L, FULL ? 3000 : 600, false);
            NotifierInstance retiring = run.launch();
            NotifierInstance doomed = run.launch();
            run.launch();
            CompletableFuture<Void> publishing = run.publish(plan, FULL ? 200 : 120);
            holdFault(Duration.ofSeconds(4));
            doomed.kill9();
            holdFault(Duration.ofSeconds(3));
            run.launch();
            retiring.awaitStarted();
            holdFault(Duration.ofSeconds(2));
            int exit = retiring.stopGracefully();
            publishing.get();
            run.awaitSettled(plan, SETTLE);
            // the outcome first (lost, re-sent, into the report), then how the SIGTERM'd instance stopped
            assertClean(run.outcome(plan, "3 instances; kill -9 one, add a 4th, SIGTERM one, mid-stream"), false);
            // a JVM ended by SIGTERM exits 143 once its shutdown hooks (Camel's graceful stop) ran
            assertThat(exit).as("exit code after SIGTERM").isIn(0, 143);
            assertThat(retiring.log()).as("graceful shutdown completed").contains("(notifier) shutdown in")
                    .doesNotContain("Timeout occurred during graceful shutdown");
        }
    }

    @Test
    @Order(7)
    void badInput() throws Exception {
        assumeTrue(selected("7"));
        try (ScenarioRun run = new ScenarioRun("7-bad-input", kafka)) {
            EventPlan plan = EventPlan.of(run.topic, 7L, FULL ? 500 : 100, true);
            run.launch();
            run.publish(plan, 1000).get();
            run.awaitSettled(plan, SETTLE);
            Outcome outcome = run.outcome(plan, plan.poison.size() + " poison classes + CR/LF name, HTML name, bidi name, header records");
            assertThat(plan.poison).hasSizeGreaterThanOrEqualTo(12);
            assertClean(outcome, true);
            assertThat(run.sinks.evilDeliveries()).as("emails that reached the attacker's domain").isZero();
        }
    }

    /**
     * A relay that works but answers every command just under the timeout, fewer connections than
     * senders, and more emails than the senders can finish within a claim: claims run out while their
     * notifications wait and are taken over, yet no send outlives its claim, so no key is accepted twice.
     */
    @Test
    @Order(8)
    void slowRelayJustUnderTheTimeout() throws Exception {
        assumeTrue(selected("8"));
        try (ScenarioRun run = new ScenarioRun("8-slow-relay", kafka)) {
            // full size: 150 emails at ~6.4 s each on 4 connections, about 4 min of sending, so its own settle
            // time; CI's: 30, about 50 s, still enough for claims to run out while senders wait for a connection
            EventPlan plan = EventPlan.of(run.topic, 9L, FULL ? 150 : 30, false);
            Duration replyDelay = ScenarioRun.SMTP_TIMEOUT.multipliedBy(8).dividedBy(10);
            run.sinks.slowSmtp(replyDelay);
            run.launch(java.util.Map.of("notifier.delivery.senders", "8", "notifier.smtp.connections", "4"));
            run.publish(plan, 200).get();
            run.awaitSettled(plan, FULL ? Duration.ofSeconds(600) : SETTLE);
            assertClean(run.outcome(plan, "every SMTP reply " + replyDelay.toMillis() + " ms late (timeout "
                    + ScenarioRun.SMTP_TIMEOUT.toMillis() + " ms), 4 connections for 8 senders"), true);
            assertThat(run.db.count("SELECT count(*) FROM notifications WHERE channel = 'EMAIL' AND attempts > 1"))
                    .as("email claims that ran out while waiting and were taken over").isPositive();
        }
    }

    /** Throughput with 1, 2 and 3 instances on one group and one database, measured in one run. */
    @Test
    @Order(9)
    void scaleOutThroughput() throws Exception {
        assumeTrue(selected("scale"));
        java.util.Map<String, Object> table = new java.util.LinkedHashMap<>();
        for (int instances = 1; instances <= 3; instances++) {
            try (ScenarioRun run = new ScenarioRun("scale-" + instances, kafka)) {
                EventPlan plan = EventPlan.of(run.topic, 8L, FULL ? 4000 : 1000, false);
                run.publish(plan, 20_000).get();
                for (int i = 0; i < instances; i++) {
                    run.launch();
                }
                run.awaitSettled(plan, SETTLE);
                java.util.Map<String, Object> rates = run.db.jdbc().queryForMap("""
                        SELECT (SELECT count(*) FROM inbox)
                                 / NULLIF(EXTRACT(EPOCH FROM (SELECT max(created_at) - min(created_at) FROM inbox)), 0)
                                 AS inbox_events_per_s,
                               (SELECT count(*) FROM notifications WHERE status = 'SENT')
                                 / NULLIF(EXTRACT(EPOCH FROM (SELECT max(sent_at) FROM notifications)
                                          - (SELECT min(created_at) FROM inbox)), 0)
                                 AS sent_per_s""");
                table.put(instances + " instance(s)", java.util.Map.of(
                        "inbox_events_per_s", Math.round(((Number) rates.get("inbox_events_per_s")).doubleValue()),
                        "notifications_sent_per_s", Math.round(((Number) rates.get("sent_per_s")).doubleValue())));
                assertClean(run.outcome(plan, instances + " instance(s), preloaded"), false);
            }
        }
        REPORT.extra("scale-out", table);
    }

    private static void assertClean(Outcome outcome, boolean noResends) throws Exception {
        REPORT.add(outcome);
        System.out.println(REPORT.table());
        assertThat(outcome.lost()).as("lost").isZero();
        assertThat(outcome.unexpectedDeliveries()).as("deliveries nobody asked for").isZero();
        assertThat(outcome.extraRows()).as("rows nobody asked for").isZero();
        assertThat(outcome.dlqActual()).as("DLQ records").isEqualTo(outcome.dlqExpected());
        assertThat(outcome.dlqMismatches()).as("DLQ records that are not exactly the poison").isZero();
        assertThat(outcome.resendCauses().keySet()).as("re-sends outside a claim, or by two senders of one claim")
                .noneMatch(cause -> cause.contains("investigate"));
        if (noResends) {
            assertThat(outcome.resends()).as("re-sends").isZero();
        }
    }

    private static boolean selected(String scenario) {
        return SCENARIOS.contains("all") || SCENARIOS.contains(scenario);
    }

    /** How long an injected fault lasts (or the healthy stretch between two faults): not synchronisation. */
    static void holdFault(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }
}
