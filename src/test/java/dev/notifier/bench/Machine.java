package dev.notifier.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/** What the machine and a process used, read from /proc (Linux). */
final class Machine {

    /** USER_HZ is 100 on Linux: /proc counts CPU time in hundredths of a second. */
    private static final long MILLIS_PER_TICK = 10;

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

    /**
     * CPU time the process's JIT compiler threads ({@code C1 CompilerThre}, {@code C2 CompilerThre},
     * as the kernel names them) have used so far, in ms: the part of its CPU that is the JVM
     * warming up rather than work, which shrinks as a run grows longer.
     */
    static long jitCpuMillis(long pid) {
        long ticks = 0;
        try (var tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path task : tasks.toList()) {
                String[] f = stat(task);
                if (f != null && f[1].matches("\\(C[12] CompilerThre.*\\)")) {
                    ticks += cpuTicks(f);
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return ticks * MILLIS_PER_TICK;
    }

    /**
     * CPU time a process and its live descendants have used so far, in ms, from /proc (readable
     * whichever user they run as): a sink's, nginx's workers included.
     */
    static long treeCpuMillis(long pid) {
        long ticks = 0;
        for (long p : java.util.stream.Stream.concat(java.util.stream.Stream.of(pid),
                ProcessHandle.of(pid).stream().flatMap(ProcessHandle::descendants).map(ProcessHandle::pid)).toList()) {
            String[] f = stat(Path.of("/proc", String.valueOf(p)));
            if (f != null) {
                ticks += cpuTicks(f);
            }
        }
        return ticks * MILLIS_PER_TICK;
    }

    /**
     * CPU time PostgreSQL's processes have used so far, in ms: every live {@code postgres} process,
     * plus what the postmaster's children that already exited used (its cutime and cstime).
     */
    static long postgresCpuMillis() {
        Map<String, String[]> postgres = new HashMap<>();
        try (var procs = Files.list(Path.of("/proc"))) {
            procs.map(Machine::stat).filter(f -> f != null && f[1].equals("(postgres)")).forEach(f -> postgres.put(f[0], f));
        } catch (IOException e) {
            return -1;
        }
        long ticks = 0;
        for (String[] f : postgres.values()) {
            ticks += cpuTicks(f);
            if (!postgres.containsKey(f[3])) {
                // the postmaster: its parent is not PostgreSQL
                ticks += Long.parseLong(f[15]) + Long.parseLong(f[16]);
            }
        }
        return ticks * MILLIS_PER_TICK;
    }

    /**
     * CPU time every live process has used so far, in ms, summed by the part of the benchmark it is:
     * {@code service} (the instance measured), {@code PostgreSQL}, {@code broker} (kafka.Kafka),
     * {@code harness} (this JVM: the producer, the probes), {@code sinks} (smtp-sink, nginx) and
     * {@code other}. Differenced over a stretch, where the machine's cores went meanwhile.
     */
    static Map<String, Long> cpuByPart(long servicePid) {
        Map<String, Long> parts = new java.util.TreeMap<>();
        long harness = ProcessHandle.current().pid();
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path proc : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
                String[] f = stat(proc);
                if (f != null) {
                    parts.merge(part(proc, f, servicePid, harness), cpuTicks(f) * MILLIS_PER_TICK, Long::sum);
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return parts;
    }

    private static String part(Path proc, String[] stat, long servicePid, long harness) {
        long pid = Long.parseLong(stat[0]);
        String name = stat[1];
        if (pid == servicePid) {
            return "service";
        } else if (pid == harness) {
            return "harness";
        } else if (name.equals("(postgres)")) {
            return "PostgreSQL";
        } else if (name.equals("(smtp-sink)") || name.equals("(nginx)")) {
            return "sinks";
        }
        try {
            return new String(Files.readAllBytes(proc.resolve("cmdline"))).contains("kafka.Kafka") ? "broker" : "other";
        } catch (IOException e) {
            return "other";
        }
    }

    /** utime + stime of a /proc stat line: the CPU the process or thread itself used, in clock ticks. */
    private static long cpuTicks(String[] stat) {
        return Long.parseLong(stat[13]) + Long.parseLong(stat[14]);
    }

    /** /proc/PID/stat split into fields (field 2, the name, kept whole), or null if not readable. */
    private static String[] stat(Path proc) {
        try {
            String line = Files.readString(proc.resolve("stat"));
            int open = line.indexOf('(');
            int close = line.lastIndexOf(')');
            String[] rest = line.substring(close + 2).split(" ");
            String[] fields = new String[rest.length + 2];
            fields[0] = line.substring(0, open - 1);
            fields[1] = line.substring(open, close + 1);
            System.arraycopy(rest, 0, fields, 2, rest.length);
            return fields;
        } catch (IOException | RuntimeException e) {
            return null;
        }
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

        /**
         * CPU time every core spent at work since {@code earlier}, in ms: the whole machine's cost of
         * what ran meanwhile, whichever process it was.
         */
        long busyMillisSince(Cpu earlier) {
            return (busy - earlier.busy) * MILLIS_PER_TICK;
        }

        /** Share of all cores busy since {@code earlier}, 0..1. */
        double busySince(Cpu earlier) {
            long total = this.total - earlier.total;
            return total == 0 ? Double.NaN : (double) (busy - earlier.busy) / total;
        }
    }
}
