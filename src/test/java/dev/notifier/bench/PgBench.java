package dev.notifier.bench;

import dev.notifier.support.TestDatabase;
import dev.notifier.support.TestPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The database's own ceiling: PostgreSQL's pgbench running Notifier's inbox transaction (a script
 * under {@code src/test/resources/bench/}) on a fresh database migrated with the service's own
 * Flyway migration, at the consumers' concurrency. One transaction is one event.
 */
final class PgBench {

    private static final Pattern TPS = Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)");
    private static final Pattern TRANSACTIONS = Pattern.compile("number of transactions actually processed: ([0-9]+)");

    /**
     * @param eventsPerS        committed transactions per second, one per event
     * @param machineCpuMsPerEvent every core's busy time per event meanwhile (PostgreSQL, pgbench
     *                          itself, anything else that ran): what one event costs the machine at
     *                          this ceiling
     * @param postgresCpuMsPerEvent PostgreSQL's processes' part of it
     */
    record Ceiling(double eventsPerS, double machineCpuMsPerEvent, double postgresCpuMsPerEvent) {

        static final Ceiling NOT_MEASURED = new Ceiling(Double.NaN, Double.NaN, Double.NaN);
    }

    private PgBench() {
    }

    /**
     * @param script  a resource under {@code bench/}
     * @param payload the stored event JSON, bound as {@code :payload}
     * @return committed transactions per second, one per event, and their CPU
     */
    static Ceiling measure(String script, int clients, int seconds, String payload, Path logDir) throws Exception {
        try (TestDatabase db = new TestDatabase()) {
            db.migrate();
            Path scriptFile = Files.createTempFile("notifier-bench-", ".sql");
            try (InputStream in = PgBench.class.getResourceAsStream("/bench/" + script)) {
                Files.write(scriptFile, in.readAllBytes());
            }
            URI server = URI.create(TestPostgres.server().substring("jdbc:".length()));
            List<String> command = List.of("pgbench", "-h", server.getHost(), "-p", String.valueOf(server.getPort()),
                    "-U", TestDatabase.USER, "-n", "-M", "prepared", "-c", String.valueOf(clients),
                    "-j", String.valueOf(clients), "-T", String.valueOf(seconds), "-D", "payload=" + payload,
                    "-f", scriptFile.toString(), db.name());
            Machine.Cpu machineBefore = Machine.Cpu.now();
            long postgresBefore = Machine.postgresCpuMillis();
            String output = run(command, logDir.resolve("pgbench-" + script.replace(".sql", "") + ".log"));
            long postgresMs = Machine.postgresCpuMillis() - postgresBefore;
            long machineMs = Machine.Cpu.now().busyMillisSince(machineBefore);
            Files.deleteIfExists(scriptFile);
            Matcher tps = TPS.matcher(output);
            Matcher transactions = TRANSACTIONS.matcher(output);
            if (!tps.find() || !transactions.find()) {
                throw new IllegalStateException("pgbench printed no tps or transactions line:\n" + output);
            }
            double events = Math.max(Long.parseLong(transactions.group(1)), 1);
            return new Ceiling(Double.parseDouble(tps.group(1)), machineMs / events, postgresMs / events);
        }
    }

    private static String run(List<String> command, Path log) throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        Files.writeString(log, String.join(" ", command) + "\n" + output);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("pgbench failed (is it installed? apt-get install postgresql-client):\n" + output);
        }
        return output;
    }
}
