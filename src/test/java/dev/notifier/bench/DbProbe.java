package dev.notifier.bench;

import dev.notifier.support.TestDatabase;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Where PostgreSQL's time goes during one phase: what the service's backends are doing, sampled
 * from pg_stat_activity every 50 ms (on CPU, waiting on WAL or a lock, or idle in a transaction
 * waiting for the service), and the commit and WAL counters differenced. pg_stat_wal is cluster
 * wide, so other databases' work on a shared server shows there too.
 */
final class DbProbe {

    private static final String COUNTERS = """
            SELECT d.xact_commit, d.tup_inserted, d.tup_updated, w.wal_bytes, w.wal_sync, w.wal_write
            FROM pg_stat_database d, pg_stat_wal w WHERE d.datname = ?""";

    private final TestDatabase db;
    // one connection for the whole phase: a new backend per sample would itself load the server
    private final SingleConnectionDataSource connection;
    private final JdbcTemplate jdbc;
    private final Map<String, AtomicInteger> states = new ConcurrentHashMap<>();
    private final AtomicInteger samples = new AtomicInteger();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    private final Map<String, Object> before;
    private final long startedNanos = System.nanoTime();

    private DbProbe(TestDatabase db) {
        this.db = db;
        this.connection = new SingleConnectionDataSource(db.url(), TestDatabase.USER, "", true);
        this.jdbc = new JdbcTemplate(connection);
        this.before = counters();
        sampler.scheduleAtFixedRate(this::sample, 0, 50, TimeUnit.MILLISECONDS);
    }

    static DbProbe start(TestDatabase db) {
        return new DbProbe(db);
    }

    /** The phase's evidence, normalised per event where that makes sense. */
    Map<String, Object> stop(long events) throws InterruptedException {
        sampler.shutdown();
        sampler.awaitTermination(5, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        Map<String, Object> after = counters();
        connection.destroy();
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("commits_per_s", round(delta(after, "xact_commit") / seconds));
        evidence.put("commits_per_event", round(delta(after, "xact_commit") / events));
        evidence.put("rows_written_per_event", round((delta(after, "tup_inserted") + delta(after, "tup_updated")) / events));
        evidence.put("wal_kb_per_event (cluster)", round(delta(after, "wal_bytes") / 1024 / events));
        evidence.put("wal_fsyncs_per_s (cluster)", round(delta(after, "wal_sync") / seconds));
        Map<String, Object> backends = new LinkedHashMap<>();
        int n = Math.max(samples.get(), 1);
        states.entrySet().stream().sorted((a, b) -> b.getValue().get() - a.getValue().get())
                .forEach(e -> backends.put(e.getKey(), round((double) e.getValue().get() / n)));
        evidence.put("busy backends by state, average", backends);
        return evidence;
    }

    private void sample() {
        try {
            jdbc.query("""
                    SELECT state || ' ' || coalesce(wait_event_type || ':' || wait_event, 'on CPU') AS what
                    FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid() AND state <> 'idle'""",
                    rs -> {
                        states.computeIfAbsent(rs.getString(1), k -> new AtomicInteger()).incrementAndGet();
                    }, db.name());
            samples.incrementAndGet();
        } catch (RuntimeException e) {
            // a missed sample is no evidence either way
        }
    }

    private Map<String, Object> counters() {
        return jdbc.queryForMap(COUNTERS, db.name());
    }

    private double delta(Map<String, Object> after, String column) {
        return ((Number) after.get(column)).doubleValue() - ((Number) before.get(column)).doubleValue();
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
