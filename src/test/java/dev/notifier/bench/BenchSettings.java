package dev.notifier.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The benchmark's knobs, as system properties (the pom passes them through failsafe):
 * {@code bench.events} preloaded events per mode, {@code bench.rate} the offered rates of the latency
 * streams (comma-separated, one stream each, in order) and {@code bench.latency-seconds} each lasts, {@code bench.ceiling-seconds} per pgbench run, {@code bench.jvm} the options
 * the jar runs with (empty: plain {@code java -jar}, as the README runs it), {@code bench.cds} whether
 * it starts from a class data sharing archive written by a training run first, as docs/operations.md
 * describes; {@code bench.launch} how the jar is started: {@code script} (the default) as the README
 * starts it, {@code bin/notifier}, its class archive written by a first run of the service on the
 * stage (bench.jvm then goes in NOTIFIER_JAVA_OPTS and bench.cds is moot), or {@code java}: plain
 * {@code java} with bench.jvm.
 */
record BenchSettings(int events, List<Integer> rates, int latencySeconds, int ceilingSeconds, List<String> jvmOptions, Path logDir,
                     boolean cds, boolean script) {

    static BenchSettings fromSystemProperties() {
        String jvm = System.getProperty("bench.jvm", "").trim();
        return new BenchSettings(
                Integer.getInteger("bench.events", 500),
                Arrays.stream(System.getProperty("bench.rate", "200,1000").split(",")).map(String::trim)
                        .map(Integer::valueOf).toList(),
                Integer.getInteger("bench.latency-seconds", 2),
                Integer.getInteger("bench.ceiling-seconds", 3),
                jvm.isEmpty() ? List.of() : Arrays.asList(jvm.split("\\s+")),
                Path.of("target", "bench-logs"),
                Boolean.getBoolean("bench.cds"),
                !"java".equals(System.getProperty("bench.launch", "script").trim()));
    }

    /** Generous: a slow, shared machine must not turn a measurement into a failure. */
    Duration timeoutFor(long events) {
        return Duration.ofSeconds(120).plusMillis(events * 20);
    }
}
