package dev.notifier.scale;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.notifier.delivery.NotificationStates;
import dev.notifier.ops.EventHistory;
import dev.notifier.ops.NotificationCounts;
import dev.notifier.processes.KafkaBrokerProcess;
import dev.notifier.processes.NotifierInstance;
import dev.notifier.support.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Operating at bank scale (issue 15): for each size in {@code -Dscale.rows} (default a tiny 20,000 so
 * the build proves it works; {@code -Pscale} runs 1 M and 10 M), a database filled by
 * {@link ScaleFixture}, then the time of each operator read, the packaged jar's /metrics and
 * /api/summary scraped once a second, the service's and PostgreSQL's CPU meanwhile, and the jar's
 * verify and inbox purge at -Xmx64m. Prints a table and a {@code SCALE {json}} line, writes
 * target/scale-report.json. Times are this machine's; nothing here asserts one.
 */
class ScaleBenchmarkIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int SAMPLES = 9;

    @Test
    void measureOperatorReadsAtEachSize() throws Exception {
        List<Long> sizes = Arrays.stream(System.getProperty("scale.rows", "20000").split(",")).map(String::strip)
                .map(Long::parseLong).toList();
        int scrapeSeconds = Integer.getInteger("scale.scrape-seconds", 5);
        Path logDir = Path.of("target", "scale-logs");
        // a fresh directory: "started" is read from the instance's log, which a previous run's must not answer
        org.springframework.util.FileSystemUtils.deleteRecursively(logDir);
        Files.createDirectories(logDir);
        List<Map<String, Object>> results = new ArrayList<>();
        try (KafkaBrokerProcess kafka = new KafkaBrokerProcess(Files.createTempDirectory("notifier-scale"), logDir)) {
            for (long rows : sizes) {
                results.add(measure(rows, scrapeSeconds, kafka, logDir));
            }
        }
        Path report = Path.of("target", "scale-report.json");
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(report.toFile(), results);
        System.out.println(table(results));
        System.out.println("SCALE " + new ObjectMapper().writeValueAsString(results));
        assertThat(results).allSatisfy(r -> assertThat(r.get("verify_exit")).isEqualTo(0));
    }

    private static Map<String, Object> measure(long rows, int scrapeSeconds, KafkaBrokerProcess kafka, Path logDir)
            throws Exception {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("rows", rows);
        try (TestDatabase db = new TestDatabase()) {
            db.migrate();
            // one connection, as the service's pool keeps them: the reads are timed, not connecting
            org.springframework.jdbc.datasource.SingleConnectionDataSource connection =
                    new org.springframework.jdbc.datasource.SingleConnectionDataSource(db.url(), TestDatabase.USER, "", true);
            JdbcTemplate jdbc = new JdbcTemplate(connection);
            long started = System.nanoTime();
            ScaleFixture.fill(jdbc, rows, line -> System.out.println("scale fixture: " + line));
            r.put("fill_s", seconds(started));
            r.put("db_size_mb", jdbc.queryForObject("SELECT pg_database_size(current_database()) / 1048576", Long.class));
            r.put("counts_by_count_star_ms", millis(() -> {
                jdbc.queryForList("SELECT channel, status, count(*) FROM notifications GROUP BY channel, status");
                jdbc.queryForObject("SELECT count(*) FROM inbox", Long.class);
            }));
            r.put("counts_kept_ms", millis(() -> {
                jdbc.queryForList(NotificationCounts.BY_CHANNEL_AND_STATUS);
                jdbc.queryForObject(NotificationCounts.INBOX_SIZE, Long.class);
            }));
            UUID event = jdbc.queryForObject("SELECT event_id FROM notifications ORDER BY id DESC OFFSET 1000 LIMIT 1", UUID.class);
            r.put("event_history_ms", millis(() -> {
                jdbc.queryForList(EventHistory.RECEIVED, dev.notifier.inbox.InboxRepository.PROCESSOR_NAME, event.toString());
                jdbc.queryForList(EventHistory.ROWS, event);
                jdbc.queryForList(EventHistory.ATTEMPTS, event);
            }));
            java.sql.Timestamp now = new java.sql.Timestamp(System.currentTimeMillis());
            r.put("due_query_ms", millis(() -> jdbc.queryForList(NotificationStates.findDue(3), now, now, "EMAIL", "PUSH", "LINE", 50)));
            serviceUnderScrapes(db, kafka, logDir, scrapeSeconds, r);
            Map<String, String> env = commandEnvironment(db);
            started = System.nanoTime();
            Command verify = runJar(env, "verify", "--since", "1d");
            r.put("verify_exit", verify.exit());
            r.put("verify_since_1d_s", seconds(started));
            // what it read: a day of a 30-day month, every key of it
            long keys = Long.parseLong(verify.output().replaceAll("(?s).*checked (\\d+) inbox key.*", "$1"));
            r.put("verify_keys_checked", keys);
            assertThat(keys).as(verify.output()).isBetween(rows / 2 / 40, rows / 2 / 20);
            started = System.nanoTime();
            Command purge = runJar(env, "inbox", "purge", "--older-than", "29d");
            r.put("inbox_purge_exit", purge.exit());
            r.put("inbox_purge_29d_s", seconds(started));
            r.put("inbox_keys_left", jdbc.queryForObject(NotificationCounts.INBOX_SIZE, Long.class));
            connection.destroy();
        }
        return r;
    }

    /** The jar on the filled database, scraped once a second on /metrics and /api/summary. */
    private static void serviceUnderScrapes(TestDatabase db, KafkaBrokerProcess kafka, Path logDir, int seconds,
                                            Map<String, Object> r) throws Exception {
        String topic = "scale-" + UUID.randomUUID().toString().substring(0, 8);
        kafka.createTopic(topic, 3);
        kafka.createTopic(topic + ".dlq", 1);
        Map<String, String> env = NotifierInstance.wiredTo(kafka, topic, "scale-" + topic, db.url(), TestDatabase.USER,
                1, "http://127.0.0.1:1/push");
        try (NotifierInstance service = new NotifierInstance("scale-" + r.get("rows"), logDir, env, Map.of())) {
            service.launch().awaitStarted();
            String base = "http://127.0.0.1:" + service.httpPort();
            for (int i = 0; i < 3; i++) {
                get(base + "/metrics");
                get(base + "/api/summary");
            }
            List<Long> metrics = new ArrayList<>();
            List<Long> summary = new ArrayList<>();
            long serviceCpu = service.cpuMillis();
            long databaseCpu = postgresCpuMillis();
            long started = System.nanoTime();
            for (int second = 0; second < seconds; second++) {
                long tick = System.nanoTime();
                metrics.add(get(base + "/metrics"));
                summary.add(get(base + "/api/summary"));
                long rest = 1_000_000_000L - (System.nanoTime() - tick);
                if (rest > 0) {
                    Thread.sleep(rest / 1_000_000); // the scrape interval being measured, not a synchronisation
                }
            }
            double wallMs = (System.nanoTime() - started) / 1e6;
            r.put("metrics_p50_ms", percentile(metrics, 50));
            r.put("metrics_p99_ms", percentile(metrics, 99));
            r.put("summary_p50_ms", percentile(summary, 50));
            r.put("summary_p99_ms", percentile(summary, 99));
            r.put("idle_cpu_service_pct_of_core", round(100 * (service.cpuMillis() - serviceCpu) / wallMs));
            r.put("idle_cpu_postgres_pct_of_core", round(100 * (postgresCpuMillis() - databaseCpu) / wallMs));
            service.stopGracefully();
        }
    }

    /** Milliseconds of one GET, which must answer 200. */
    private static long get(String url) throws Exception {
        long started = System.nanoTime();
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(url).isEqualTo(200);
        return (System.nanoTime() - started) / 1_000_000;
    }

    private static Map<String, String> commandEnvironment(TestDatabase db) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NOTIFIER_DB_URL", db.url());
        env.put("NOTIFIER_DB_USER", TestDatabase.USER);
        return env;
    }

    /** What an operator command printed on stdout, and its exit code. */
    private record Command(int exit, String output) {
    }

    /** An operator command of the packaged jar, with a heap of 64 MB: memory that does not grow with the table. */
    private static Command runJar(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx64m", "-jar", NotifierInstance.JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(Path.of("target", "scale-logs", "scale-commands.log").toFile()));
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        System.out.print(String.join(" ", args) + ": " + output);
        return new Command(process.waitFor(), output);
    }

    /** CPU time of every PostgreSQL process on this machine (the server and its backends). */
    private static long postgresCpuMillis() {
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.contains("postgres")).orElse(false))
                .mapToLong(p -> p.info().totalCpuDuration().map(Duration::toMillis).orElse(0L)).sum();
    }

    /** The median of {@value #SAMPLES} runs, warm. */
    private static double millis(Runnable read) {
        read.run();
        List<Long> times = new ArrayList<>();
        for (int i = 0; i < SAMPLES; i++) {
            long started = System.nanoTime();
            read.run();
            times.add((System.nanoTime() - started) / 1000);
        }
        return percentile(times, 50) / 1000.0;
    }

    private static double percentile(List<Long> values, int p) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    private static double seconds(long startedNanos) {
        return round((System.nanoTime() - startedNanos) / 1e9);
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }

    private static String table(List<Map<String, Object>> results) {
        StringBuilder t = new StringBuilder("\nscale benchmark (medians of " + SAMPLES + " warm reads; p50/p99 over the scrapes)\n");
        t.append(String.format("%-34s", "rows in notifications"));
        results.forEach(r -> t.append(String.format("%14s", r.get("rows"))));
        t.append('\n');
        for (String key : results.get(0).keySet()) {
            if (!key.equals("rows")) {
                t.append(String.format("%-34s", key));
                results.forEach(r -> t.append(String.format("%14s", r.get(key))));
                t.append('\n');
            }
        }
        return t.toString();
    }
}
