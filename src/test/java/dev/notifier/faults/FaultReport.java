package dev.notifier.faults;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The suite's summary: a table on stdout and target/fault-report.json, rewritten after each scenario. */
final class FaultReport {

    static final Path FILE = Path.of("target", "fault-report.json");

    private final List<Outcome> outcomes = new ArrayList<>();
    private final Map<String, Object> extras = new LinkedHashMap<>();

    synchronized void add(Outcome outcome) throws IOException {
        outcomes.add(outcome);
        write();
    }

    synchronized void extra(String name, Object value) throws IOException {
        extras.put(name, value);
        write();
    }

    synchronized String table() {
        StringBuilder t = new StringBuilder();
        t.append(String.format("%-34s %6s %7s %6s %5s %8s %9s %5s %7s  %s%n",
                "scenario", "events", "records", "sent", "lost", "re-sends", "dlq exp/act", "ok", "seconds", "faults"));
        for (Outcome o : outcomes) {
            t.append(String.format("%-34s %6d %7d %6d %5d %8d %5d/%-5d %5s %7.1f  %s%n",
                    o.scenario(), o.validEvents(), o.records(), o.expectedSent(), o.lost(), o.resends(),
                    o.dlqExpected(), o.dlqActual(), o.clean() ? "yes" : "NO", o.seconds(), o.faults()));
            o.resendCauses().forEach((cause, n) -> t.append(String.format("%-34s   re-sends: %d × %s%n", "", n, cause)));
        }
        extras.forEach((k, v) -> t.append(k).append(": ").append(v).append('\n'));
        return t.toString();
    }

    private void write() throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenarios", outcomes);
        json.putAll(extras);
        FILE.getParent().toFile().mkdirs();
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(FILE.toFile(), json);
    }
}
