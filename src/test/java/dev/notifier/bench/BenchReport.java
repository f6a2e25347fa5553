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

    double inboxCeiling;
    double lifecycleCeiling;
    int lifecycleClients;
    SinkCapacity.Capacity smtpSink = new SinkCapacity.Capacity(Double.NaN, Double.NaN);
    SinkCapacity.Capacity pushSink = new SinkCapacity.Capacity(Double.NaN, Double.NaN);
    double loadAtStart;
    double loadAtEnd;
    int events;
    int duplicates;
    ModeResult perEvent;
    ModeResult batch;

    Map<String, Object> json() {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("lifecycle_ceiling_events_per_s", round(lifecycleCeiling));
        j.put("e2e_events_per_s", round(perEvent.e2eEventsPerS));
        j.put("e2e_ratio", round(perEvent.e2eEventsPerS / lifecycleCeiling));
        j.put("batch_e2e_events_per_s", round(batch.e2eEventsPerS));
        j.put("batch_e2e_ratio", round(batch.e2eEventsPerS / lifecycleCeiling));
        j.put("cpu_ms_per_notification", round(perEvent.cpuMsPerNotification));
        j.put("batch_cpu_ms_per_notification", round(batch.cpuMsPerNotification));
        j.put("jit_cpu_ms_per_notification", round(perEvent.jitMsPerNotification));
        j.put("batch_jit_cpu_ms_per_notification", round(batch.jitMsPerNotification));
        j.put("warm_cpu_ms_per_notification", round(perEvent.warmCpuMsPerNotification));
        j.put("batch_warm_cpu_ms_per_notification", round(batch.warmCpuMsPerNotification));
        for (ModeResult mode : new ModeResult[] {perEvent, batch}) {
            String prefix = mode == batch ? "batch_" : "";
            j.put(prefix + "service_cores", round(mode.serviceCores));
            j.put(prefix + "postgres_cores", round(mode.postgresCores));
            j.put(prefix + "machine_busy", round(mode.machineBusy));
        }
        j.put("p50_ms", perEvent.p50Ms);
        j.put("p99_ms", perEvent.p99Ms);
        j.put("batch_p50_ms", batch.p50Ms);
        j.put("batch_p99_ms", batch.p99Ms);
        j.put("stream_service_cores", round(perEvent.streamServiceCores));
        j.put("stream_machine_busy", round(perEvent.streamMachineBusy));
        j.put("batch_stream_service_cores", round(batch.streamServiceCores));
        j.put("batch_stream_machine_busy", round(batch.streamMachineBusy));
        j.put("recorded_p50_ms", perEvent.recordedP50Ms);
        j.put("recorded_p99_ms", perEvent.recordedP99Ms);
        j.put("batch_recorded_p50_ms", batch.recordedP50Ms);
        j.put("batch_recorded_p99_ms", batch.recordedP99Ms);
        j.put("offered_events_per_s", round(perEvent.offeredPerS));
        j.put("rss_mb", round(perEvent.rssMb));
        j.put("batch_rss_mb", round(batch.rssMb));
        j.put("startup_s", round(perEvent.startupS));
        j.put("batch_startup_s", round(batch.startupS));
        j.put("inbox_events_per_s", round(perEvent.inboxEventsPerS));
        j.put("batch_inbox_events_per_s", round(batch.inboxEventsPerS));
        j.put("inbox_ceiling_events_per_s", round(inboxCeiling));
        j.put("smtp_sink_messages_per_s", round(smtpSink.perSecond()));
        j.put("push_sink_requests_per_s", round(pushSink.perSecond()));
        j.put("smtp_client_cpu_ms_per_message", round(smtpSink.clientCpuMs()));
        j.put("http_client_cpu_ms_per_request", round(pushSink.clientCpuMs()));
        j.put("events", events);
        j.put("duplicates", duplicates);
        j.put("consumers", Stage.CONSUMERS);
        j.put("lifecycle_clients", lifecycleClients);
        j.put("cores", Runtime.getRuntime().availableProcessors());
        j.put("load1_start", loadAtStart);
        j.put("load1_end", loadAtEnd);
        return j;
    }

    String table() {
        StringBuilder t = new StringBuilder();
        t.append(String.format("%n=== Notifier benchmark: %d events (+%d duplicate records, 2 channels each) per mode, %d"
                        + " consumers, %d cores, load %.2f -> %.2f ===%n", events, duplicates, Stage.CONSUMERS,
                Runtime.getRuntime().availableProcessors(), loadAtStart, loadAtEnd));
        row(t, "", "per-event", "batch", "target");
        row(t, "sink alone: smtp-sink msg/s", fmt(smtpSink.perSecond()), "", "");
        row(t, "  Jakarta Mail client CPU ms per message", ratio(smtpSink.clientCpuMs()), "", "");
        row(t, "sink alone: nginx POST /push req/s", fmt(pushSink.perSecond()), "", "");
        row(t, "  JDK HttpClient CPU ms per request", ratio(pushSink.clientCpuMs()), "", "");
        row(t, "ceiling: pgbench, inbox transaction ev/s", fmt(inboxCeiling), "", "");
        row(t, String.format("ceiling: pgbench, lifecycle (%d clients) ev/s", lifecycleClients), fmt(lifecycleCeiling),
                "", "");
        row(t, "inbox ev/s in the same run", fmt(perEvent.inboxEventsPerS), fmt(batch.inboxEventsPerS), "");
        row(t, "end to end ev/s (consumed->SENT)", fmt(perEvent.e2eEventsPerS), fmt(batch.e2eEventsPerS), "");
        row(t, "  x lifecycle ceiling", ratio(perEvent.e2eEventsPerS / lifecycleCeiling),
                ratio(batch.e2eEventsPerS / lifecycleCeiling), ">= 1.0 / >= 2.0");
        row(t, String.format("produce->SENT p50 ms @ %.0f ev/s", perEvent.offeredPerS), fmt(perEvent.p50Ms),
                fmt(batch.p50Ms), "");
        row(t, "produce->SENT p99 ms", fmt(perEvent.p99Ms), fmt(batch.p99Ms), "< 250 (per-event)");
        row(t, "  of which produce->recorded p50 / p99 ms", fmt(perEvent.recordedP50Ms) + "/" + fmt(perEvent.recordedP99Ms),
                fmt(batch.recordedP50Ms) + "/" + fmt(batch.recordedP99Ms), "");
        row(t, "  meanwhile: service cores; all cores busy %",
                String.format("%.2f; %.0f", perEvent.streamServiceCores, 100 * perEvent.streamMachineBusy),
                String.format("%.2f; %.0f", batch.streamServiceCores, 100 * batch.streamMachineBusy), "");
        row(t, "service CPU ms per notification", ratio(perEvent.cpuMsPerNotification),
                ratio(batch.cpuMsPerNotification), "<= 0.25 (aim)");
        row(t, "  of it, the JIT compiler threads", ratio(perEvent.jitMsPerNotification),
                ratio(batch.jitMsPerNotification), "");
        row(t, "  warm: during the latency stream", ratio(perEvent.warmCpuMsPerNotification),
                ratio(batch.warmCpuMsPerNotification), "");
        row(t, "  cores used: service / PostgreSQL", cores(perEvent), cores(batch), "");
        row(t, "  all cores busy %", fmt(100 * perEvent.machineBusy), fmt(100 * batch.machineBusy), "");
        row(t, "peak RSS MB", fmt(perEvent.rssMb), fmt(batch.rssMb), "< 512");
        row(t, "start to first event s", String.format("%.2f", perEvent.startupS), String.format("%.2f", batch.startupS),
                "< 3");
        for (ModeResult mode : new ModeResult[] {perEvent, batch}) {
            t.append(String.format("evidence %s, whole pipeline: %s%n", mode.mode, mode.e2eEvidence));
        }
        return t.toString();
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
