package dev.notifier.faults;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The machine's PostgreSQL cluster, restarted and stopped by the suite (scenario 3 only). */
final class PostgresServer {

    private PostgresServer() {
    }

    static void restart() throws Exception {
        ctl("restart");
    }

    static void stop() throws Exception {
        ctl("stop");
    }

    /** Starts the cluster; one that is already running is left as it is. */
    static void start() throws Exception {
        ctl("start");
    }

    private static void ctl(String action) throws IOException, InterruptedException {
        String version;
        try (var versions = Files.list(Path.of("/etc/postgresql"))) {
            version = versions.map(p -> p.getFileName().toString()).sorted().reduce((a, b) -> b)
                    .orElseThrow(() -> new IllegalStateException("no cluster under /etc/postgresql"));
        }
        Process process = new ProcessBuilder(List.of("pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(new File("target/fault-logs/postgres.log")))
                .start();
        int exit = process.waitFor();
        // pg_ctlcluster start answers 2 for "Cluster is already running"
        if (exit != 0 && !(exit == 2 && action.equals("start"))) {
            throw new IllegalStateException("pg_ctlcluster " + action + " failed; see target/fault-logs/postgres.log");
        }
    }
}
