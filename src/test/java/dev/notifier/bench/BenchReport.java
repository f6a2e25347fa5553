package dev.notifier.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The benchmark's output: a table of both modes side by side with the targets, the evidence behind
 * the numbers, and last one line {@code BENCH {json}} for machines. Also written to
 * target/bench-report.json.
 */
final class BenchReport {

    static final Path FILE = Path.of("target", "bench-report.json");

    PgBench.Ceiling inbox = PgBench.Ceiling.NOT_MEASURED;
    PgBench.Ceiling lifecycle = PgBench.Ceiling.NOT_MEASURED;
    int lifecycleClients;
    SinkCapacity.Capacity smtpSink = SinkCapacity.Capacity.NOT_MEASURED;
    SinkCapacity.Capacity pushSink = SinkCapacity.Capacity.NOT_MEASURED;
    double loadAtStart;
    /** How the jar was started: bin/notifier (the README's command) or java with bench.jvm. */
    String launch = "";
    double loadAtEnd;
    int events;
    int duplicates;
    ModeResult perEvent;
    ModeResult batch;

    Map<String, Object> json() {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("lifecycle_ceiling_events_per_s", round(lifecycle.eventsPerS()));
        j.put("e2e_events_per_s", round(perEvent.e2eEventsPerS));
        j.put("e2e_ratio", round(perEvent.e2eEventsPerS / lifecycle.eventsPerS()));
        j.put("batch_e2e_events_per_s", round(batch.e2eEventsPerS));
        j.put("batch_e2e_ratio", round(batch.e2eEventsPerS / lifecycle.eventsPerS()));
        j.put("cpu_ms_per_notification", round(perEvent.cpuMsPerNotification));
        j.put("batch_cpu_ms_per_notification", round(batch.cpuMsPerNotification));
        j.put("jit_cpu_ms_per_notification", round(perEvent.jitMsPerNotification));
        j.put("batch_jit_cpu_ms_per_notification", round(batch.jitMsPerNotification));
        for (ModeResult mode : new ModeResult[] {perEvent, batch}) {
            String prefix = mode == batch ? "batch_" : "";
            j.put(prefix + "service_cores", round(mode.serviceCores));
            j.put(prefix + "postgres_cores", round(mode.postgresCores));
            j.put(prefix + "machine_busy", round(mode.machineBusy));
        }
        j.put("plain_clients_cpu_ms_per_message", round(plainClientsMs()));
        Map<String, Object> streams = new LinkedHashMap<>();
        for (ModeResult mode : new ModeResult[] {perEvent, batch}) {
            String prefix = mode == batch ? "batch_" : "";
            for (ModeResult.Stream stream : mode.streams) {
                String at = "_at_" + stream.rate;
                j.put(prefix + "p50_ms" + at, stream.overall.p50());
                j.put(prefix + "p99_ms" + at, stream.overall.p99());
                j.put(prefix + "warm_cpu_ms_per_notification" + at, round(stream.warmCpuMsPerNotification));
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("offered_events_per_s", round(stream.offeredPerS));
                one.put("commit_timestamps", stream.commitTimes);
                stream.stages.forEach((stage, p) -> one.put(stage, Map.of("p50_ms", p.p50(), "p99_ms", p.p99(), "timed", p.timed())));
                one.put("service_cores", round(stream.serviceCores));
                one.put("machine_busy", round(stream.machineBusy));
                Map<String, Object> parts = new LinkedHashMap<>();
                stream.partCores.forEach((part, cores) -> parts.put(part, round(cores)));
                one.put("cores_by_part", parts);
                streams.put(mode.mode + at, one);
            }
        }
        j.put("streams", streams);
        j.put("rss_mb", round(perEvent.rssMb));
        j.put("batch_rss_mb", round(batch.rssMb));
        j.put("startup_s", round(perEvent.startupS));
        j.put("batch_startup_s", round(batch.startupS));
        j.put("inbox_events_per_s", round(perEvent.inboxEventsPerS));
        j.put("batch_inbox_events_per_s", round(batch.inboxEventsPerS));
        j.put("inbox_ceiling_events_per_s", round(inbox.eventsPerS()));
        j.put("smtp_sink_messages_per_s", round(smtpSink.perSecond()));
        j.put("push_sink_requests_per_s", round(pushSink.perSecond()));
        j.put("smtp_client_cpu_ms_per_message", round(smtpSink.clientCpuMs()));
        j.put("http_client_cpu_ms_per_request", round(pushSink.clientCpuMs()));
        j.put("smtp_sink_cpu_ms_per_message", round(smtpSink.sinkCpuMs()));
        j.put("push_sink_cpu_ms_per_request", round(pushSink.sinkCpuMs()));
        j.put("delivery_floor_cpu_ms_per_event", round(deliveryFloorMs()));
        j.put("lifecycle_machine_cpu_ms_per_event", round(lifecycle.machineCpuMsPerEvent()));
        j.put("lifecycle_postgres_cpu_ms_per_event", round(lifecycle.postgresCpuMsPerEvent()));
        j.put("inbox_machine_cpu_ms_per_event", round(inbox.machineCpuMsPerEvent()));
        j.put("inbox_postgres_cpu_ms_per_event", round(inbox.postgresCpuMsPerEvent()));
        j.put("machine_cpu_ms_per_event", round(perEvent.machineCpuMsPerEvent));
        j.put("batch_machine_cpu_ms_per_event", round(batch.machineCpuMsPerEvent));
        j.put("postgres_cpu_ms_per_event", round(perEvent.postgresCpuMsPerEvent));
        j.put("batch_postgres_cpu_ms_per_event", round(batch.postgresCpuMsPerEvent));
        j.put("events", events);
        j.put("duplicates", duplicates);
        j.put("consumers", Stage.CONSUMERS);
        j.put("lifecycle_clients", lifecycleClients);
        j.put("cores", Runtime.getRuntime().availableProcessors());
        j.put("load1_start", loadAtStart);
        j.put("launch", launch);
        j.put("load1_end", loadAtEnd);
        return j;
    }

    String table() {
        StringBuilder t = new StringBuilder();
        t.append(String.format("%n=== Notifier benchmark: %d events (+%d duplicate records, 2 channels each) per mode, %d"
                        + " consumers, %d cores, load %.2f -> %.2f, started by %s ===%n", events, duplicates, Stage.CONSUMERS,
                Runtime.getRuntime().availableProcessors(), loadAtStart, loadAtEnd, launch));
        row(t, "", "per-event", "batch", "target");
        row(t, "sink alone: smtp-sink msg/s", fmt(smtpSink.perSecond()), "", "");
        row(t, "  Jakarta Mail client CPU ms per message", ratio(smtpSink.clientCpuMs()), "", "");
        row(t, "sink alone: nginx POST /push req/s", fmt(pushSink.perSecond()), "", "");
        row(t, "  JDK HttpClient CPU ms per request", ratio(pushSink.clientCpuMs()), "", "");
        row(t, "ceiling: pgbench, inbox transaction ev/s", fmt(inbox.eventsPerS()), "", "");
        row(t, String.format("ceiling: pgbench, lifecycle (%d clients) ev/s", lifecycleClients), fmt(lifecycle.eventsPerS()),
                "", "");
        row(t, "inbox ev/s in the same run", fmt(perEvent.inboxEventsPerS), fmt(batch.inboxEventsPerS), "");
        row(t, "end to end ev/s (consumed->SENT)", fmt(perEvent.e2eEventsPerS), fmt(batch.e2eEventsPerS), "");
        row(t, "  x lifecycle ceiling", ratio(perEvent.e2eEventsPerS / lifecycle.eventsPerS()),
                ratio(batch.e2eEventsPerS / lifecycle.eventsPerS()), ">= 0.8 / >= 1.5");
        for (int i = 0; i < perEvent.streams.size(); i++) {
            ModeResult.Stream measured = perEvent.streams.get(i);
            // -Dbench.modes=per-event: the batch column stays empty
            streamRows(t, measured, i < batch.streams.size() ? batch.streams.get(i) : ModeResult.Stream.notRun(measured.rate));
        }
        row(t, "service CPU ms per notification", ratio(perEvent.cpuMsPerNotification),
                ratio(batch.cpuMsPerNotification), "<= 0.25 (aim)");
        row(t, "  of it, the JIT compiler threads", ratio(perEvent.jitMsPerNotification),
                ratio(batch.jitMsPerNotification), "");
        row(t, "  cores used: service / PostgreSQL", cores(perEvent), cores(batch), "");
        row(t, "  all cores busy %", fmt(100 * perEvent.machineBusy), fmt(100 * batch.machineBusy), "");
        t.append("CPU ms per event, all cores (busy time / events; one event = one email + one push):\n");
        row(t, "  ceiling: pgbench lifecycle, machine / PostgreSQL",
                ratio(lifecycle.machineCpuMsPerEvent()) + "/" + ratio(lifecycle.postgresCpuMsPerEvent()), "", "");
        row(t, "  ceiling: pgbench inbox tx, machine / PostgreSQL",
                ratio(inbox.machineCpuMsPerEvent()) + "/" + ratio(inbox.postgresCpuMsPerEvent()), "", "");
        row(t, "  budget at the target ratio (lifecycle / ratio)", ratio(lifecycle.machineCpuMsPerEvent()),
                ratio(lifecycle.machineCpuMsPerEvent() / 2), "");
        row(t, "  the pipeline: machine", ratio(perEvent.machineCpuMsPerEvent), ratio(batch.machineCpuMsPerEvent), "");
        row(t, "    of it the service / PostgreSQL",
                ratio(2 * perEvent.cpuMsPerNotification) + "/" + ratio(perEvent.postgresCpuMsPerEvent),
                ratio(2 * batch.cpuMsPerNotification) + "/" + ratio(batch.postgresCpuMsPerEvent), "");
        row(t, "  sinks alone: smtp-sink / nginx, own CPU", ratio(smtpSink.sinkCpuMs()) + "/" + ratio(pushSink.sinkCpuMs()),
                "", "");
        row(t, "  delivery floor: both sinks + plain clients", ratio(deliveryFloorMs()), "", "");
        row(t, "peak RSS MB", fmt(perEvent.rssMb), fmt(batch.rssMb), "< 512");
        row(t, "start to first event s", String.format("%.2f", perEvent.startupS), String.format("%.2f", batch.startupS),
                "< 3");
        for (ModeResult mode : new ModeResult[] {perEvent, batch}) {
            t.append(String.format("evidence %s, whole pipeline: %s%n", mode.mode, mode.e2eEvidence));
        }
        return t.toString();
    }

    /** One paced stream of both modes: produce->SENT, each stage of it, the CPU it cost. */
    private void streamRows(StringBuilder t, ModeResult.Stream perEvent, ModeResult.Stream batch) {
        boolean ordinary = perEvent.rate <= 200;
        row(t, String.format("produce->SENT p50/p99 ms @ %.0f ev/s offered", perEvent.offeredPerS), perEvent.overall.toString(),
                batch.overall.toString(), ordinary ? "< 50 / < 250" : "batch p99 < 1000");
        perEvent.stages.forEach((stage, p) -> {
            if (!stage.startsWith("produce->SENT")) {
                row(t, "  " + stage, p.toString(), String.valueOf(batch.stages.get(stage)), "");
            }
        });
        row(t, "  meanwhile: service cores; all cores busy %",
                String.format("%.2f; %.0f", perEvent.serviceCores, 100 * perEvent.machineBusy),
                String.format("%.2f; %.0f", batch.serviceCores, 100 * batch.machineBusy), "");
        row(t, "  meanwhile, cores by part", parts(perEvent), parts(batch), "");
        row(t, "  warm service CPU ms per notification", ratio(perEvent.warmCpuMsPerNotification),
                ratio(batch.warmCpuMsPerNotification), "");
        row(t, "    x the plain clients' CPU per message", ratio(perEvent.warmCpuMsPerNotification / plainClientsMs()),
                ratio(batch.warmCpuMsPerNotification / plainClientsMs()), "<= 1.5");
    }

    /** "service 0.41, PostgreSQL 0.20, ...": where the cores went during a stream. */
    private static String parts(ModeResult.Stream stream) {
        return stream.partCores.entrySet().stream().map(e -> String.format("%s %.2f", e.getKey(), e.getValue()))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /** The plain Jakarta Mail and JDK HttpClient clients' CPU per message, averaged over one email and one push. */
    double plainClientsMs() {
        return (smtpSink.clientCpuMs() + pushSink.clientCpuMs()) / 2;
    }

    /**
     * What delivering one event's email and push costs the machine with nothing of Notifier's in
     * between: both sinks' own CPU and the plain clients' (measured alone, before the pipeline).
     * A pipeline's CPU per event cannot go below it plus what PostgreSQL needs to record the event.
     */
    double deliveryFloorMs() {
        return smtpSink.sinkCpuMs() + smtpSink.clientCpuMs() + pushSink.sinkCpuMs() + pushSink.clientCpuMs();
    }

    void write() throws Exception {
        Map<String, Object> all = new LinkedHashMap<>(json());
        all.put("evidence", Map.of(perEvent.mode, perEvent.e2eEvidence, batch.mode, batch.e2eEvidence));
        FILE.getParent().toFile().mkdirs();
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(FILE.toFile(), all);
    }

    String benchLine() throws Exception {
        return "BENCH " + new ObjectMapper().writeValueAsString(json());
    }

    private static void row(StringBuilder t, String label, String perEvent, String batch, String target) {
        t.append(String.format("%-46s %10s %10s   %s%n", label, perEvent, batch, target));
    }

    private static String cores(ModeResult mode) {
        return String.format("%.2f/%.2f", mode.serviceCores, mode.postgresCores);
    }

    private static String fmt(double value) {
        return String.format("%.0f", value);
    }

    private static String ratio(double value) {
        return String.format("%.2f", value);
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
