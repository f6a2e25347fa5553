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

    double ceiling;
    double leanCeiling;
    double loadAtStart;
    double loadAtEnd;
    int events;
    int duplicates;
    ModeResult perEvent;
    ModeResult batch;

    Map<String, Object> json() {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("ceiling_events_per_s", round(ceiling));
        j.put("inbox_events_per_s", round(perEvent.inboxEventsPerS));
        j.put("ratio", round(perEvent.inboxEventsPerS / ceiling));
        j.put("batch_inbox_events_per_s", round(batch.inboxEventsPerS));
        j.put("batch_ratio", round(batch.inboxEventsPerS / ceiling));
        j.put("e2e_events_per_s", round(perEvent.e2eEventsPerS));
        j.put("p50_ms", perEvent.p50Ms);
        j.put("p99_ms", perEvent.p99Ms);
        j.put("rss_mb", round(perEvent.rssMb));
        j.put("startup_s", round(perEvent.startupS));
        j.put("lean_ceiling_events_per_s", round(leanCeiling));
        j.put("lean_ratio", round(perEvent.inboxEventsPerS / leanCeiling));
        j.put("batch_e2e_events_per_s", round(batch.e2eEventsPerS));
        j.put("batch_p50_ms", batch.p50Ms);
        j.put("batch_p99_ms", batch.p99Ms);
        j.put("batch_rss_mb", round(batch.rssMb));
        j.put("batch_startup_s", round(batch.startupS));
        j.put("offered_events_per_s", round(perEvent.offeredPerS));
        j.put("events", events);
        j.put("duplicates", duplicates);
        j.put("consumers", Stage.CONSUMERS);
        j.put("cores", Runtime.getRuntime().availableProcessors());
        j.put("load1_start", loadAtStart);
        j.put("load1_end", loadAtEnd);
        return j;
    }

    String table() {
        StringBuilder t = new StringBuilder();
        t.append(String.format("%n=== Notifier benchmark: %d events (+%d duplicate records) per mode, %d consumers,"
                        + " %d cores, load %.2f -> %.2f ===%n", events, duplicates, Stage.CONSUMERS,
                Runtime.getRuntime().availableProcessors(), loadAtStart, loadAtEnd));
        row(t, "", "per-event", "batch", "target");
        row(t, "ceiling: pgbench, inbox transaction ev/s", fmt(ceiling), "", "");
        row(t, "ceiling: pgbench, lean statements ev/s", fmt(leanCeiling), "", "");
        row(t, "inbox stage ev/s (consumed->committed)", fmt(perEvent.inboxEventsPerS), fmt(batch.inboxEventsPerS), "");
        row(t, "  x ceiling", ratio(perEvent.inboxEventsPerS / ceiling), ratio(batch.inboxEventsPerS / ceiling),
                ">= 0.9 / >= 2.5");
        row(t, "  x lean ceiling", ratio(perEvent.inboxEventsPerS / leanCeiling), "", "");
        row(t, "end to end ev/s (consumed->SENT)", fmt(perEvent.e2eEventsPerS), fmt(batch.e2eEventsPerS), "");
        row(t, String.format("produce->SENT p50 ms @ %.0f ev/s", perEvent.offeredPerS), fmt(perEvent.p50Ms),
                fmt(batch.p50Ms), "");
        row(t, "produce->SENT p99 ms", fmt(perEvent.p99Ms), fmt(batch.p99Ms), "< 250");
        row(t, "peak RSS MB", fmt(perEvent.rssMb), fmt(batch.rssMb), "< 512");
        row(t, "start to first event s", String.format("%.2f", perEvent.startupS), String.format("%.2f", batch.startupS),
                "< 5");
        row(t, "service CPU s, inbox stage", fmt(perEvent.inboxCpuMs / 1000.0), fmt(batch.inboxCpuMs / 1000.0), "");
        for (ModeResult mode : new ModeResult[] {perEvent, batch}) {
            t.append(String.format("evidence %s, inbox stage: %s%n", mode.mode, mode.inboxEvidence));
            t.append(String.format("evidence %s, whole pipeline: %s%n", mode.mode, mode.e2eEvidence));
        }
        return t.toString();
    }

    void write() throws Exception {
        Map<String, Object> all = new LinkedHashMap<>(json());
        all.put("evidence", Map.of(perEvent.mode, Map.of("inbox", perEvent.inboxEvidence, "pipeline", perEvent.e2eEvidence),
                batch.mode, Map.of("inbox", batch.inboxEvidence, "pipeline", batch.e2eEvidence)));
        FILE.getParent().toFile().mkdirs();
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(FILE.toFile(), all);
    }

    String benchLine() throws Exception {
        return "BENCH " + new ObjectMapper().writeValueAsString(json());
    }

    private static void row(StringBuilder t, String label, String perEvent, String batch, String target) {
        t.append(String.format("%-44s %10s %10s   %s%n", label, perEvent, batch, target));
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
