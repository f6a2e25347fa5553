package dev.notifier.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.notifier.processes.KafkaBrokerProcess;
import dev.notifier.processes.NotifierInstance;
import dev.notifier.processes.ProcessKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * One intake mode (per event or batch) measured on one launch of the jar on fresh parts, delivering
 * to the standard sinks: the whole pipeline on preloaded events (end to end, the inbox's pace in the
 * same run, CPU per notification, start-up), then, on the same warm instance, a stream at each
 * offered rate (latency, stage by stage), and the peak RSS of it all.
 */
final class ModeRun {

    private final KafkaBrokerProcess kafka;
    private final BenchSettings settings;
    private static boolean scriptArchiveTrained;
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
            if (settings.script()) {
                trainScriptArchive(stage, jvm);
            } else if (settings.cds()) {
                jvm.add("-XX:SharedArchiveFile=" + trainClassArchive(stage, jvm));
            }
            stage.preload(load.records);
            stage.launch(name + "-pipeline", batch, jvm, settings.script());
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
        stage.launch(name + "-class-archive", batch, training, false).awaitStarted();
        stage.instance().stopGracefully();
        assertThat(archive).as("class data sharing archive").exists();
        return archive;
    }

    /**
     * The script's archive, beside the jar, written afresh by this benchmark run's first mode: the first
     * run of a deployment, started and stopped on the stage; the modes after it start from it, as a
     * deployment's every later start does.
     */
    private static void trainScriptArchive(Stage stage, List<String> jvm) throws Exception {
        if (scriptArchiveTrained) {
            return;
        }
        Path archive = NotifierInstance.JAR.resolveSibling("notifier.jsa");
        Files.deleteIfExists(archive);
        stage.launch("class-archive", false, jvm, true).awaitStarted();
        stage.instance().stopGracefully();
        assertThat(archive).as("the class archive bin/notifier writes on the service's first exit").isNotEmptyFile();
        scriptArchiveTrained = true;
    }

    /**
     * One stream of new events per offered rate, each timed stage by stage from its send to each of
     * its rows' SENT; and the service's CPU per notification meanwhile, on an instance the
     * whole-pipeline run warmed.
     */
    private void latency(Stage stage, int alreadySent, ModeResult result) throws Exception {
        long sent = 2L * alreadySent;
        long seed = 2L;
        for (int rate : settings.rates()) {
            ModeResult.Stream timed = new ModeResult.Stream(rate);
            BenchLoad stream = BenchLoad.stream(stage.topic, rate * settings.latencySeconds(), seed++);
            Map<String, Long> producedAt = new ConcurrentHashMap<>();
            long cpuBefore = Machine.cpuMillis(stage.instance().pid());
            Machine.Cpu machineBefore = Machine.Cpu.now();
            Map<String, Long> partsBefore = Machine.cpuByPart(stage.instance().pid());
            long wallBefore = System.nanoTime();
            ProcessKafka.publishPaced(kafka.bootstrap(), stream.records, rate,
                    record -> producedAt.put(new String(record.key(), StandardCharsets.UTF_8), System.currentTimeMillis())).get();
            timed.offeredPerS = stream.events / seconds(Collections.min(producedAt.values()), Collections.max(producedAt.values()));
            sent += 2L * stream.events;
            stage.awaitSent(sent, settings.timeoutFor(stream.events));
            long cpuAfter = Machine.cpuMillis(stage.instance().pid());
            timed.warmCpuMsPerNotification = (cpuAfter - cpuBefore) / (2.0 * stream.events);
            double wallMs = (System.nanoTime() - wallBefore) / 1e6;
            timed.serviceCores = (cpuAfter - cpuBefore) / wallMs;
            Map<String, Double> partCores = new java.util.LinkedHashMap<>();
            Machine.cpuByPart(stage.instance().pid()).forEach(
                    (part, ms) -> partCores.put(part, (ms - partsBefore.getOrDefault(part, 0L)) / wallMs));
            timed.partCores = partCores;
            timed.machineBusy = Machine.Cpu.now().busySince(machineBefore);
            // nginx flushes its arrivals log every 200 ms
            Set<String> pushKeys = producedAt.keySet().stream().map(id -> id + ":PUSH").collect(Collectors.toSet());
            await().atMost(Duration.ofSeconds(10)).until(() -> stage.sinks.pushArrivals().keySet().containsAll(pushKeys));
            StageLatency latency = StageLatency.measure(stage.db, producedAt, stage.sinks.pushArrivals());
            timed.commitTimes = latency.commitTimes;
            timed.stages = latency.percentiles();
            timed.overall = latency.overall();
            assertThat(timed.overall.timed()).as("timed notifications").isEqualTo(2 * stream.events);
            result.streams.add(timed);
        }
    }

    private static double seconds(long fromMillis, long toMillis) {
        return Math.max(toMillis - fromMillis, 1) / 1000.0;
    }
}
