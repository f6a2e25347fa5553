package dev.notifier.processes;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.notifier.support.SmtpSink;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The SMTP server, push gateway and LINE Messaging API of the suite, recording every accepted delivery
 * with its idempotency key (Message-ID, Idempotency-Key, X-Line-Retry-Key). The push gateway and LINE
 * can be made to fail on demand (the same mode for both). LINE behaves as LINE does: a retry key it
 * accepted before is answered 409 and delivers nothing; those repeats are counted apart.
 */
public final class RecordingSinks implements AutoCloseable {

    public enum PushMode { OK, UNAVAILABLE, TIMEOUT }

    static {
        // the JDK's HttpServer leaves Nagle's algorithm on, and a response's body then waits for the
        // client's delayed ACK of its headers: about 40 ms a request. Read when the first server starts.
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    public final int smtpPort;
    public final int pushPort;
    public static final String LINE_PATH = "/v2/bot/message/push";
    public static final String LINE_TOKEN = "suite-line-token";
    private final List<String> lineKeys = new CopyOnWriteArrayList<>();
    private final java.util.Set<String> acceptedLineKeys = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final AtomicInteger lineRepeats = new AtomicInteger();
    private final List<String> emailKeys = new CopyOnWriteArrayList<>();
    private final AtomicInteger evilDeliveries = new AtomicInteger();
    private final List<String> pushKeys = new CopyOnWriteArrayList<>();
    private final AtomicInteger pushRequests = new AtomicInteger();
    private volatile PushMode pushMode = PushMode.OK;
    private volatile Function<String, Integer> pushVerdict = body -> 200;
    private SmtpSink smtp;
    private java.time.Duration smtpReplyDelay = java.time.Duration.ZERO;
    private final HttpServer push;

    public RecordingSinks() throws IOException {
        smtpPort = ManagedProcess.freePort();
        startSmtp();
        push = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
        push.createContext("/push", this::handlePush);
        push.createContext(LINE_PATH, this::handleLine);
        // a thread per request: a queued request answered 200 after its sender timed out would be
        // a late acceptance (legitimately re-sent with the same key), not the outage this models
        push.setExecutor(Executors.newCachedThreadPool());
        push.start();
        pushPort = push.getAddress().getPort();
    }

    public String pushUrl() {
        return "http://127.0.0.1:" + pushPort + "/push";
    }

    public String lineUrl() {
        return "http://127.0.0.1:" + pushPort + LINE_PATH;
    }

    /** Every X-Line-Retry-Key LINE accepted (delivered); a key appears once, repeats get 409. */
    public List<String> lineKeys() {
        return List.copyOf(lineKeys);
    }

    /** Requests with a retry key LINE had accepted already: answered 409, delivered nothing. */
    public int lineRepeats() {
        return lineRepeats.get();
    }

    public void pushMode(PushMode mode) {
        pushMode = mode;
    }

    /** The status the gateway answers for a request body when it is up (e.g. 400 for a bad token). */
    public void pushVerdict(Function<String, Integer> verdict) {
        pushVerdict = verdict;
    }

    /** Stops SMTP: connections are refused until {@link #startSmtp()}. */
    public synchronized void stopSmtp() throws IOException {
        if (smtp != null) {
            smtp.close();
            smtp = null;
        }
    }

    public synchronized void startSmtp() throws IOException {
        smtp = new SmtpSink(smtpPort, recipient -> "250 2.1.5 Ok", this::record, SmtpSink.Options.slow(smtpReplyDelay));
    }

    /** From now on every SMTP reply comes this late: a relay that is slow, not down. */
    public synchronized void slowSmtp(java.time.Duration replyDelay) {
        smtpReplyDelay = replyDelay;
        if (smtp != null) {
            smtp.replyDelay(replyDelay);
        }
    }

    /** Every Message-ID the SMTP server accepted, re-sends included. */
    public List<String> emailKeys() {
        return List.copyOf(emailKeys);
    }

    /** Every Idempotency-Key the gateway answered with 2xx, re-sends included. */
    public List<String> pushKeys() {
        return List.copyOf(pushKeys);
    }

    public int pushRequests() {
        return pushRequests.get();
    }

    public static Map<String, Long> counts(List<String> keys) {
        return keys.stream().collect(Collectors.groupingBy(k -> k, Collectors.counting()));
    }

    /** Messages delivered to a recipient at the attacker's domain: header injection that worked. */
    public int evilDeliveries() {
        return evilDeliveries.get();
    }

    public static final String EVIL_DOMAIN = "evil.example";

    private void record(SmtpSink.AcceptedMail mail) {
        emailKeys.add(mail.messageId());
        if (mail.recipients().stream().anyMatch(r -> r.toLowerCase(Locale.ROOT).endsWith("@" + EVIL_DOMAIN))) {
            evilDeliveries.incrementAndGet();
        }
    }

    private void handlePush(HttpExchange exchange) throws IOException {
        pushRequests.incrementAndGet();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        int status = statusWhenUp(() -> pushVerdict.apply(body));
        if (status / 100 == 2) {
            pushKeys.add(key);
        }
        byte[] answer = ("{\"status\":" + status + "}").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }

    private void handleLine(HttpExchange exchange) throws IOException {
        exchange.getRequestBody().readAllBytes();
        String key = exchange.getRequestHeaders().getFirst("X-Line-Retry-Key");
        boolean authorized = ("Bearer " + LINE_TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"));
        int status = statusWhenUp(() -> !authorized || key == null ? 400 : 200);
        if (status == 200 && !acceptedLineKeys.add(key)) {
            lineRepeats.incrementAndGet();
            status = 409;
        } else if (status == 200) {
            lineKeys.add(key);
        }
        byte[] answer = (status == 409 ? "{\"message\":\"The retry key is already accepted\"}" : "{\"sentMessages\":[]}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }

    /** The injected fault of the HTTP providers' mode, else what the provider says when it is up. */
    private int statusWhenUp(java.util.function.IntSupplier up) {
        switch (pushMode) {
            case UNAVAILABLE -> {
                return 503;
            }
            case TIMEOUT -> {
                pause(5_000);
                return 503;
            }
            default -> {
                return up.getAsInt();
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis); // the injected fault: a gateway that does not answer in time
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void close() throws IOException {
        push.stop(0);
        stopSmtp();
    }
}
