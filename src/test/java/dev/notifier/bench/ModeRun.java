package dev.notifier.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.processes.KafkaBrokerProcess;
import dev.notifier.processes.ProcessKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One intake mode (per event or batch) measured on one launch of the jar on fresh parts, delivering
 * to the standard sinks: the whole pipeline on preloaded events (end to end, the inbox's pace in the
 * same run, CPU per notification, start-up), then, on the same warm instance, a stream at a fixed
 * offered rate (latency), and the peak RSS of it all.
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
        try (Stage stage = new Stage(kafka, settings.logDir())) {
            BenchLoad load = BenchLoad.preloaded(stage.topic, settings.events(), 1L);
            // %mode% in bench.jvm names the mode, e.g. a flight recording per mode
            List<String> jvm = new ArrayList<>(settings.jvmOptions().stream().map(o -> o.replace("%mode%", name)).toList());
            if (settings.cds()) {
                jvm.add("-XX:SharedArchiveFile=" + trainClassArchive(stage, jvm));
            }
            stage.preload(load.records);
            stage.launch(name + "-pipeline", batch, jvm);
            stage.awaitFirstRecorded();
            long cpuAtFirst = Machine.cpuMillis(stage.instance().pid());
            long jitAtFirst = Machine.jitCpuMillis(stage.instance().pid());
            long postgresAtFirst = Machine.postgresCpuMillis();
            Machine.Cpu machineAtFirst = Machine.Cpu.now();
            long wallAtFirst = System.nanoTime();
            long first = stage.firstRecordedAt();
            result.startupS = (first - stage.launchedAt()) / 1000.0;
            DbProbe probe = DbProbe.start(stage.db);
            stage.awaitSent(2L * load.events, settings.timeoutFor(load.events));
            long cpuAtLast = Machine.cpuMillis(stage.instance().pid());
            long jitAtLast = Machine.jitCpuMillis(stage.instance().pid());
            double wallMs = (System.nanoTime() - wallAtFirst) / 1e6;
            long postgresMs = Machine.postgresCpuMillis() - postgresAtFirst;
            Machine.Cpu machineAtLast = Machine.Cpu.now();
            result.serviceCores = (cpuAtLast - cpuAtFirst) / wallMs;
            result.postgresCores = postgresMs / wallMs;
            result.machineBusy = machineAtLast.busySince(machineAtFirst);
            result.machineCpuMsPerEvent = machineAtLast.busyMillisSince(machineAtFirst) / (double) load.events;
            result.postgresCpuMsPerEvent = postgresMs / (double) load.events;
            result.e2eEvidence = probe.stop(load.events);
            result.e2eEventsPerS = load.events / seconds(first, stage.lastSentAt());
            result.inboxEventsPerS = load.events / seconds(first, stage.lastRecordedAt());
            result.cpuMsPerNotification = (cpuAtLast - cpuAtFirst) / (2.0 * load.events);
            result.jitMsPerNotification = (jitAtLast - jitAtFirst) / (2.0 * load.events);
            assertThat(stage.sinks.smtpMessages()).as("emails the sink accepted").isGreaterThanOrEqualTo(load.events);
            assertThat(stage.sinks.pushRequests()).as("pushes the sink accepted").isGreaterThanOrEqualTo(load.events);
            latency(stage, load.events, result);
            result.rssMb = Machine.peakRssMb(stage.instance().pid());
        }
        return result;
    }

    /**
     * The training run docs/operations.md describes, on this stage's parts before any event is
     * published: started, then stopped, the classes it loaded written to an archive on exit.
     */
    private Path trainClassArchive(Stage stage, List<String> jvm) throws Exception {
        Path archive = settings.logDir().toAbsolutePath().resolve(name + ".jsa");
        Files.deleteIfExists(archive);
        List<String> training = new ArrayList<>(jvm);
        training.add("-XX:ArchiveClassesAtExit=" + archive);
        stage.launch(name + "-class-archive", batch, training).awaitStarted();
        stage.instance().stopGracefully();
        assertThat(archive).as("class data sharing archive").exists();
        return archive;
    }

    /**
     * A stream of new events at the offered rate, each timed from its send to each of its rows' SENT;
     * and the service's CPU per notification meanwhile, on an instance the whole-pipeline run warmed.
     */
    private void latency(Stage stage, int alreadySent, ModeResult result) throws Exception {
        BenchLoad stream = BenchLoad.stream(stage.topic, settings.rate() * settings.latencySeconds(), 2L);
        Map<String, Long> producedAt = new ConcurrentHashMap<>();
        long cpuBefore = Machine.cpuMillis(stage.instance().pid());
        Machine.Cpu machineBefore = Machine.Cpu.now();
        long wallBefore = System.nanoTime();
        ProcessKafka.publishPaced(kafka.bootstrap(), stream.records, settings.rate(),
                record -> producedAt.put(new String(record.key(), java.nio.charset.StandardCharsets.UTF_8),
                        System.currentTimeMillis())).get();
        long lastProduced = Collections.max(producedAt.values());
        result.offeredPerS = stream.events / seconds(Collections.min(producedAt.values()), lastProduced);
        stage.awaitSent(2L * (alreadySent + stream.events), settings.timeoutFor(stream.events));
        long cpuAfter = Machine.cpuMillis(stage.instance().pid());
        result.warmCpuMsPerNotification = (cpuAfter - cpuBefore) / (2.0 * stream.events);
        result.streamServiceCores = (cpuAfter - cpuBefore) / ((System.nanoTime() - wallBefore) / 1e6);
        result.streamMachineBusy = Machine.Cpu.now().busySince(machineBefore);
        List<Long> latencies = new ArrayList<>();
        // recorded: the row's creation, in the inbox transaction; what is left after it is delivery's
        List<Long> recorded = new ArrayList<>();
        stage.db.jdbc().query("SELECT event_id, sent_at, created_at FROM notifications", rs -> {
            Long produced = producedAt.get(rs.getString(1));
            if (produced != null) {
                latencies.add(rs.getTimestamp(2).getTime() - produced);
                recorded.add(rs.getTimestamp(3).getTime() - produced);
            }
        });
        assertThat(latencies).as("timed notifications").hasSize(2 * stream.events);
        Collections.sort(latencies);
        Collections.sort(recorded);
        result.p50Ms = percentile(latencies, 0.50);
        result.p99Ms = percentile(latencies, 0.99);
        result.recordedP50Ms = percentile(recorded, 0.50);
        result.recordedP99Ms = percentile(recorded, 0.99);
    }

    private static double seconds(long fromMillis, long toMillis) {
        return Math.max(toMillis - fromMillis, 1) / 1000.0;
    }

    private static long percentile(List<Long> sorted, double p) {
        return sorted.get((int) Math.round(p * (sorted.size() - 1)));
    }
}
