package dev.notifier.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** What the machine and a process used, read from /proc (Linux). */
final class Machine {

    private Machine() {
    }

    /** The 1-minute load average. */
    static double load1() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    /** Peak resident set size of a live process (VmHWM), in MiB. */
    static double peakRssMb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        throw new IllegalStateException("no VmHWM for pid " + pid);
    }

    /** CPU time the process has used so far, in ms. */
    static long cpuMillis(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration()).map(java.time.Duration::toMillis)
                .orElse(-1L);
    }

    /** A snapshot of the machine's CPU counters, to be differenced. */
    record Cpu(long busy, long total) {

        static Cpu now() {
            try {
                long[] ticks = Arrays.stream(Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+"))
                        .skip(1).mapToLong(Long::parseLong).toArray();
                long total = Arrays.stream(ticks).limit(8).sum();
                // idle and iowait are the machine waiting; everything else is a core at work
                return new Cpu(total - ticks[3] - ticks[4], total);
            } catch (IOException e) {
                return new Cpu(0, 0);
            }
        }

        /** Share of all cores busy since {@code earlier}, 0..1. */
        double busySince(Cpu earlier) {
            long total = this.total - earlier.total;
            return total == 0 ? Double.NaN : (double) (busy - earlier.busy) / total;
        }
    }
}
