package dev.notifier.bench;

import java.util.Map;

/** One intake mode's numbers, filled in by {@link ModeRun} as it measures them. */
final class ModeResult {

    final String mode;
    double inboxEventsPerS;
    long inboxCpuMs;
    double e2eEventsPerS;
    double offeredPerS;
    double p50Ms;
    double p99Ms;
    double rssMb;
    double startupS;
    Map<String, Object> inboxEvidence = Map.of();
    Map<String, Object> e2eEvidence = Map.of();

    ModeResult(String mode) {
        this.mode = mode;
    }
}
