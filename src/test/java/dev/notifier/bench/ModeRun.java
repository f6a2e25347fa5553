package dev.notifier.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.processes.KafkaBrokerProcess;
import dev.notifier.processes.ProcessKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One intake mode (per event or batch) measured in two launches of the jar, each on fresh parts:
 * the inbox stage alone on the preloaded events; then the whole pipeline on the same events (end to
 * end, start-up), followed, on the same warm instance, by a stream at a fixed offered rate (latency)
 * and the peak RSS of it all.
 */
final class ModeRun {

    private final KafkaBrokerProcess kafka;
    private final BenchSettings settings;
    private final boolean batch;
    private final String name;

    ModeRun(KafkaBrokerProcess kafka, BenchSettings settings, boolean batch) {
        this.kafka = kafka;
        this.settings = settings;
        this.batch = batch;
        this.name = batch ? "batch" : "per-event";
    }

    ModeResult run() throws Exception {
        ModeResult result = new ModeResult(name);
        inboxStage(result);
        wholePipeline(result);
        return result;
    }

    private void inboxStage(ModeResult result) throws Exception {
        try (Stage stage = new Stage(kafka, settings.logDir())) {
            BenchLoad load = BenchLoad.preloaded(stage.topic, settings.events(), 1L);
            stage.preload(load.records);
            stage.launch(name + "-inbox", batch, false, settings.jvmOptions());
            awaitFirstRecorded(stage);
            DbProbe probe = DbProbe.start(stage.db);
            long committed = stage.awaitAllCommitted(settings.timeoutFor(load.events));
            result.inboxEvidence = probe.stop(load.events);
            result.inboxEventsPerS = load.events / seconds(stage.firstRecordedAt(), committed);
            result.inboxCpuMs = Machine.cpuMillis(stage.instance().pid());
            assertThat(stage.db.count("SELECT count(*) FROM inbox")).as("events recorded").isEqualTo(load.events);
            assertThat(stage.db.count("SELECT count(*) FROM notifications")).as("rows").isEqualTo(2 * load.events);
        }
    }

    private void wholePipeline(ModeResult result) throws Exception {
        try (Stage stage = new Stage(kafka, settings.logDir())) {
            BenchLoad load = BenchLoad.preloaded(stage.topic, settings.events(), 1L);
            stage.preload(load.records);
            stage.launch(name + "-pipeline", batch, true, settings.jvmOptions());
            awaitFirstRecorded(stage);
            long first = stage.firstRecordedAt();
            result.startupS = (first - stage.launchedAt()) / 1000.0;
            DbProbe probe = DbProbe.start(stage.db);
            stage.awaitSent(2L * load.events, settings.timeoutFor(load.events));
            result.e2eEvidence = probe.stop(load.events);
            result.e2eEventsPerS = load.events / seconds(first, stage.lastSentAt());
            latency(stage, load.events, result);
            result.rssMb = Machine.peakRssMb(stage.instance().pid());
        }
    }

    /** A stream of new events at the offered rate, each timed from its send to each of its rows' SENT. */
    private void latency(Stage stage, int alreadySent, ModeResult result) throws Exception {
        BenchLoad stream = BenchLoad.stream(stage.topic, settings.rate() * settings.latencySeconds(), 2L);
        Map<String, Long> producedAt = new ConcurrentHashMap<>();
        ProcessKafka.publishPaced(kafkaBootstrap(), stream.records, settings.rate(),
                record -> producedAt.put(new String(record.key(), java.nio.charset.StandardCharsets.UTF_8),
                        System.currentTimeMillis())).get();
        long lastProduced = Collections.max(producedAt.values());
        result.offeredPerS = stream.events / seconds(Collections.min(producedAt.values()), lastProduced);
        stage.awaitSent(2L * (alreadySent + stream.events), settings.timeoutFor(stream.events));
        List<Long> latencies = new ArrayList<>();
        stage.db.jdbc().query("SELECT event_id, sent_at FROM notifications", rs -> {
            Long produced = producedAt.get(rs.getString(1));
            if (produced != null) {
                latencies.add(rs.getTimestamp(2).getTime() - produced);
            }
        });
        assertThat(latencies).as("timed notifications").hasSize(2 * stream.events);
        Collections.sort(latencies);
        result.p50Ms = percentile(latencies, 0.50);
        result.p99Ms = percentile(latencies, 0.99);
    }

    private String kafkaBootstrap() {
        return kafka.bootstrap();
    }

    private static void awaitFirstRecorded(Stage stage) {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> stage.db.count("SELECT count(*) FROM inbox") > 0);
    }

    private static double seconds(long fromMillis, long toMillis) {
        return Math.max(toMillis - fromMillis, 1) / 1000.0;
    }

    private static long percentile(List<Long> sorted, double p) {
        return sorted.get((int) Math.round(p * (sorted.size() - 1)));
    }
}
