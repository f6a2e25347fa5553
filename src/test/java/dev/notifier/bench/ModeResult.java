package dev.notifier.bench;

import java.util.Map;

/** One intake mode's numbers, filled in by {@link ModeRun} as it measures them. */
final class ModeResult {

    final String mode;
    /** Events recorded per second during the whole-pipeline run (first to last inbox row). */
    double inboxEventsPerS;
    /** Events per second from the first recorded to the last notification SENT. */
    double e2eEventsPerS;
    /** The service's CPU time over that same stretch, per notification sent. */
    double cpuMsPerNotification;
    /** Of that, the JIT compiler threads' share: the JVM warming up, not the pipeline's work. */
    double jitMsPerNotification;
    /** The service's CPU per notification of the latency stream, which runs on the warm instance. */
    double warmCpuMsPerNotification;
    /** Over the latency stream: the cores the service used, and the share of all cores busy. */
    double streamServiceCores;
    double streamMachineBusy;
    /** Over that same stretch: the cores the service and PostgreSQL used, and the share of all cores busy. */
    double serviceCores;
    double postgresCores;
    double machineBusy;
    /**
     * Over that same stretch, per event: every core's busy time (the service, PostgreSQL, the broker,
     * the sinks, the harness), and PostgreSQL's part of it. Set beside a ceiling's, what one event costs.
     */
    double machineCpuMsPerEvent;
    double postgresCpuMsPerEvent;
    double offeredPerS;
    double p50Ms;
    double p99Ms;
    /** Produce to the row recorded (the inbox transaction), of the same stream: intake's part of the latency. */
    double recordedP50Ms;
    double recordedP99Ms;
    double rssMb;
    double startupS;
    Map<String, Object> e2eEvidence = Map.of();

    ModeResult(String mode) {
        this.mode = mode;
    }
}
