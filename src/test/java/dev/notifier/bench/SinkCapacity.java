package dev.notifier.bench;

import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

/**
 * What a sink takes when nothing else is asking: plain Java clients (Jakarta Mail over one kept
 * connection per thread, the JDK's HttpClient with keep-alive) sending as fast as they can for a few
 * seconds, once to warm the client's JVM up and once measured. If Notifier's delivery rate is far below
 * this, the sink is not what limits it; and the CPU the clients and the sink use per message is what
 * any sender would spend, however little it did besides.
 */
final class SinkCapacity {

    /**
     * @param perSecond       messages the sink accepted per second
     * @param clientCpuMs     the sending JVM's CPU time per message: what the client library alone costs
     * @param sinkCpuMs       the sink's own processes' CPU time per message
     */
    record Capacity(double perSecond, double clientCpuMs, double sinkCpuMs) {

        static final Capacity NOT_MEASURED = new Capacity(Double.NaN, Double.NaN, Double.NaN);
    }

    private SinkCapacity() {
    }

    /** @param sinkCpuMillis the sink's processes' CPU time so far, in ms */
    static Capacity smtp(int port, int threads, Duration duration, LongSupplier sinkCpuMillis) throws Exception {
        Session session = Session.getInstance(new Properties());
        return run(threads, duration, sinkCpuMillis, () -> {
            Transport transport = session.getTransport("smtp");
            transport.connect("127.0.0.1", port, null, null);
            MimeMessage message = new MimeMessage(session);
            message.setFrom(new InternetAddress("bench@notifier.local"));
            message.setRecipient(Message.RecipientType.TO, new InternetAddress("someone@example.com"));
            message.setSubject("Transfer completed: THB 1,500.00", "UTF-8");
            message.setText("Your transfer TRX-1 of THB 1,500.00 is complete.", "UTF-8");
            message.saveChanges();
            return () -> transport.sendMessage(message, message.getAllRecipients());
        });
    }

    static Capacity push(String url, int threads, Duration duration, LongSupplier sinkCpuMillis) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"token\":\"device-1\",\"title\":\"t\",\"body\":\"b\"}"))
                .build();
        return run(threads, duration, sinkCpuMillis, () -> () -> {
            if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
                throw new IllegalStateException("push sink did not answer 200");
            }
        });
    }

    interface Call {
        void call() throws Exception;
    }

    interface Client {
        Call open() throws Exception;
    }

    /** A first pass for the JIT compiler, not counted, then the measured one. */
    private static Capacity run(int threads, Duration duration, LongSupplier sinkCpuMillis, Client client)
            throws Exception {
        pass(threads, duration, sinkCpuMillis, client);
        return pass(threads, duration, sinkCpuMillis, client);
    }

    private static Capacity pass(int threads, Duration duration, LongSupplier sinkCpuMillis, Client client)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long deadline = System.nanoTime() + duration.toNanos();
        long started = System.nanoTime();
        long cpuBefore = processCpuNanos();
        long sinkCpuBefore = sinkCpuMillis.getAsLong();
        List<Future<Long>> counts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            counts.add(pool.submit(() -> {
                Call call = client.open();
                long done = 0;
                while (System.nanoTime() < deadline) {
                    try {
                        call.call();
                        done++;
                    } catch (java.io.IOException e) {
                        // a kept-alive connection the client closed under a request: not the sink's answer
                    }
                }
                return done;
            }));
        }
        long total = 0;
        for (Future<Long> count : counts) {
            total += count.get();
        }
        pool.shutdownNow();
        double cpuMs = (processCpuNanos() - cpuBefore) / 1e6;
        double sinkCpuMs = sinkCpuMillis.getAsLong() - sinkCpuBefore;
        return new Capacity(total / ((System.nanoTime() - started) / 1e9), cpuMs / Math.max(total, 1),
                sinkCpuMs / Math.max(total, 1));
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
