package dev.notifier.bench;

import java.util.ArrayList;
import java.util.List;
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
    /** The paced streams on the warm instance, one per offered rate, in the order they ran. */
    final List<Stream> streams = new ArrayList<>();
    double rssMb;
    double startupS;
    Map<String, Object> e2eEvidence = Map.of();

    ModeResult(String mode) {
        this.mode = mode;
    }

    /** A stream of new events at one offered rate, on the instance the whole-pipeline run warmed. */
    static final class Stream {
        final int rate;
        double offeredPerS;
        /** produce->SENT of every notification, and each stage of it ({@link StageLatency}). */
        StageLatency.Percentiles overall;
        Map<String, StageLatency.Percentiles> stages = Map.of();
        boolean commitTimes;
        /** The service's CPU per notification meanwhile, the cores it used, the share of all cores busy. */
        double warmCpuMsPerNotification;
        double serviceCores;
        double machineBusy;
        /** Meanwhile, the cores each part of the machine used ({@link Machine#cpuByPart}). */
        Map<String, Double> partCores = Map.of();

        Stream(int rate) {
            this.rate = rate;
        }

        static Stream notRun(int rate) {
            Stream none = new Stream(rate);
            none.overall = new StageLatency.Percentiles(0, 0, 0);
            return none;
        }
    }
}
