package dev.notifier.processes;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The off-the-shelf sinks a benchmark delivers to, so that what is measured is Notifier and not a
 * sink of its own: Postfix's {@code smtp-sink} (accepts every message, counts them) and nginx
 * answering {@code 200} to {@code POST /push} (counts requests with stub_status, logs when each key came). Both come from
 * Debian's packages, fetched with {@code apt-get download} and unpacked with {@code dpkg-deb -x}
 * under {@code target/bench-sinks}, nothing installed system-wide; run as child processes.
 */
public final class StandardSinks implements AutoCloseable {

    private static final Path ROOT = Path.of("target", "bench-sinks").toAbsolutePath();
    private static final Path SMTP_SINK = ROOT.resolve("postfix/usr/sbin/smtp-sink");
    private static final Path NGINX = ROOT.resolve("nginx/usr/sbin/nginx");

    public final int smtpPort;
    public final int pushPort;
    private final Path runDir;
    private final Process smtp;
    private final Process nginx;
    private final HttpClient http = HttpClient.newHttpClient();

    public StandardSinks() throws Exception {
        unpackIfMissing();
        smtpPort = ManagedProcess.freePort();
        pushPort = ManagedProcess.freePort();
        runDir = Files.createTempDirectory(ROOT, "run-");
        smtp = startSmtpSink();
        nginx = startNginx();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> ManagedProcess.listening(smtpPort) && ManagedProcess.listening(pushPort));
    }

    public String pushUrl() {
        return "http://127.0.0.1:" + pushPort + "/push";
    }

    /** Messages smtp-sink accepted so far (its {@code -c} counter). */
    public long smtpMessages() throws IOException {
        String out = Files.readString(runDir.resolve("smtp-sink.out"), StandardCharsets.ISO_8859_1);
        int at = out.lastIndexOf("mesg=");
        if (at < 0) {
            return 0;
        }
        int end = at + 5;
        while (end < out.length() && Character.isDigit(out.charAt(end))) {
            end++;
        }
        return Long.parseLong(out.substring(at + 5, end));
    }

    /** POST /push requests nginx answered so far (stub_status counts every request, itself included). */
    public long pushRequests() throws Exception {
        String status = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + pushPort + "/nginx_status"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        String[] counts = status.split("\n")[2].trim().split("\\s+");
        return Long.parseLong(counts[2]) - statusReads++ - 1;
    }

    private long statusReads;

    /**
     * When nginx answered each push, by its Idempotency-Key (wall-clock milliseconds, nginx's
     * {@code $msec}; the first answer where a key came twice). Its log is flushed every 200 ms.
     */
    public Map<String, Long> pushArrivals() throws IOException {
        Map<String, Long> arrivals = new HashMap<>();
        Path log = runDir.resolve("logs/push-arrivals.log");
        if (!Files.exists(log)) {
            return arrivals;
        }
        for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
            int space = line.indexOf(' ');
            if (space > 0) {
                arrivals.putIfAbsent(line.substring(space + 1), Math.round(Double.parseDouble(line.substring(0, space)) * 1000));
            }
        }
        return arrivals;
    }

    public long smtpPid() {
        return smtp.pid();
    }

    public long nginxPid() {
        return nginx.pid();
    }

    private Process startSmtpSink() throws IOException {
        List<String> command = new ArrayList<>(List.of(SMTP_SINK.toString()));
        if (isRoot()) {
            command.addAll(List.of("-u", "nobody"));
        }
        command.addAll(List.of("-c", "-m", "4096", "127.0.0.1:" + smtpPort, "4096"));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(runDir.resolve("smtp-sink.out").toFile())
                .redirectError(runDir.resolve("smtp-sink.err").toFile());
        builder.environment().put("LD_LIBRARY_PATH", ROOT.resolve("postfix/usr/lib/postfix").toString());
        return builder.start();
    }

    private Process startNginx() throws IOException {
        for (String dir : List.of("logs", "tmp/body", "tmp/proxy", "tmp/fastcgi", "tmp/uwsgi", "tmp/scgi")) {
            Files.createDirectories(runDir.resolve(dir));
        }
        String tmp = runDir.resolve("tmp").toString();
        Files.writeString(runDir.resolve("nginx.conf"), """
                daemon off;
                master_process on;
                worker_processes 1;
                worker_rlimit_nofile 65535;
                pid %1$s/nginx.pid;
                error_log %1$s/logs/error.log warn;
                events { worker_connections 4096; }
                http {
                    access_log off;
                    # when each push reached nginx, by its key: the benchmark's provider stage (buffered, cheap)
                    log_format arrivals '$msec $http_idempotency_key';
                    client_body_temp_path %2$s/body;
                    proxy_temp_path %2$s/proxy;
                    fastcgi_temp_path %2$s/fastcgi;
                    uwsgi_temp_path %2$s/uwsgi;
                    scgi_temp_path %2$s/scgi;
                    keepalive_requests 1000000;
                    keepalive_timeout 75s;
                    client_max_body_size 1m;
                    default_type application/json;
                    server {
                        listen 127.0.0.1:%3$d backlog=4096;
                        location /push {
                            access_log %1$s/logs/push-arrivals.log arrivals buffer=256k flush=200ms;
                            return 200 '{"ok":true}';
                        }
                        location /v1/traces { return 200; }
                        location = /nginx_status { stub_status; }
                        location / { return 404; }
                    }
                }
                """.formatted(runDir, tmp, pushPort));
        return new ProcessBuilder(NGINX.toString(), "-p", runDir.toString(), "-c", "nginx.conf", "-e",
                runDir.resolve("logs/error.log").toString())
                .redirectErrorStream(true).redirectOutput(runDir.resolve("nginx.out").toFile()).start();
    }

    /** apt-get download + dpkg-deb -x, once: later runs find the binaries in place. */
    private static synchronized void unpackIfMissing() throws IOException, InterruptedException {
        if (Files.isExecutable(SMTP_SINK) && Files.isExecutable(NGINX)) {
            return;
        }
        Path debs = ROOT.resolve("debs");
        Files.createDirectories(debs);
        run(debs.toFile(), "apt-get", "download", "postfix", "nginx", "nginx-common");
        try (var files = Files.list(debs)) {
            for (Path deb : files.filter(f -> f.toString().endsWith(".deb")).toList()) {
                String target = deb.getFileName().toString().startsWith("postfix") ? "postfix" : "nginx";
                run(debs.toFile(), "dpkg-deb", "-x", deb.toString(), ROOT.resolve(target).toString());
            }
        }
        if (!Files.isExecutable(SMTP_SINK) || !Files.isExecutable(NGINX)) {
            throw new IllegalStateException("smtp-sink or nginx missing under " + ROOT + " after unpacking");
        }
    }

    private static void run(File dir, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(300, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (Debian's apt-get and dpkg-deb are needed"
                    + " for the benchmark's sinks):\n" + output);
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    @Override
    public void close() throws Exception {
        nginx.destroy();
        smtp.destroy();
        nginx.waitFor(10, TimeUnit.SECONDS);
        smtp.waitFor(10, TimeUnit.SECONDS);
        nginx.destroyForcibly();
        smtp.destroyForcibly();
    }
}
