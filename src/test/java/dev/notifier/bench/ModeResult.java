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
    /** Over that same stretch: the cores the service and PostgreSQL used, and the share of all cores busy. */
    double serviceCores;
    double postgresCores;
    double machineBusy;
    double offeredPerS;
    double p50Ms;
    double p99Ms;
    double rssMb;
    double startupS;
    Map<String, Object> e2eEvidence = Map.of();

    ModeResult(String mode) {
        this.mode = mode;
    }
}
