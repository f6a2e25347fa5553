package dev.notifier.processes;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The SMTP server and push gateway of the suite, recording every accepted delivery with its
 * idempotency key (Message-ID, Idempotency-Key). Both can be made to fail on demand.
 */
public final class RecordingSinks implements AutoCloseable {

    public enum PushMode { OK, UNAVAILABLE, TIMEOUT }

    public final int smtpPort;
    public final int pushPort;
    private final List<String> emailKeys = new CopyOnWriteArrayList<>();
    private final AtomicInteger evilDeliveries = new AtomicInteger();
    private final List<String> pushKeys = new CopyOnWriteArrayList<>();
    private final AtomicInteger pushRequests = new AtomicInteger();
    private volatile PushMode pushMode = PushMode.OK;
    private int smtpBaseline;
    private volatile Function<String, Integer> pushVerdict = body -> 200;
    private GreenMail smtp;
    private final HttpServer push;

    public RecordingSinks() throws IOException {
        smtpPort = ManagedProcess.freePort();
        startSmtp();
        push = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
        push.createContext("/push", this::handlePush);
        // a thread per request: a queued request answered 200 after its sender timed out would be
        // a late acceptance (legitimately re-sent with the same key), not the outage this models
        push.setExecutor(Executors.newCachedThreadPool());
        push.start();
        pushPort = push.getAddress().getPort();
    }

    public String pushUrl() {
        return "http://127.0.0.1:" + pushPort + "/push";
    }

    public void pushMode(PushMode mode) {
        pushMode = mode;
    }

    /** The status the gateway answers for a request body when it is up (e.g. 400 for a bad token). */
    public void pushVerdict(Function<String, Integer> verdict) {
        pushVerdict = verdict;
    }

    /** Stops SMTP: connections are refused until {@link #startSmtp()}. */
    public synchronized void stopSmtp() throws MessagingException {
        if (smtp != null) {
            collect(smtp);
            smtp.stop();
            smtp = null;
        }
    }

    public synchronized void startSmtp() {
        smtp = new GreenMail(new ServerSetup(smtpPort, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        // a GreenMail started on the port of a stopped one can report the old one's messages:
        // those were counted when it stopped, so they are the new server's baseline, not new mail
        smtpBaseline = smtp.getReceivedMessages().length;
    }

    /** Every Message-ID the SMTP server accepted, re-sends included. */
    public synchronized List<String> emailKeys() throws MessagingException {
        List<String> keys = new ArrayList<>(emailKeys);
        if (smtp != null) {
            MimeMessage[] received = smtp.getReceivedMessages();
            for (int i = smtpBaseline; i < received.length; i++) {
                keys.add(received[i].getMessageID());
            }
        }
        return keys;
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
    public synchronized int evilDeliveries() {
        return evilDeliveries.get() + (smtp == null ? 0 : smtp.getReceivedMessagesForDomain(EVIL_DOMAIN).length);
    }

    public static final String EVIL_DOMAIN = "evil.example";

    private void collect(GreenMail server) throws MessagingException {
        evilDeliveries.addAndGet(server.getReceivedMessagesForDomain(EVIL_DOMAIN).length);
        MimeMessage[] received = server.getReceivedMessages();
        for (int i = smtpBaseline; i < received.length; i++) {
            emailKeys.add(received[i].getMessageID());
        }
    }

    private void handlePush(HttpExchange exchange) throws IOException {
        pushRequests.incrementAndGet();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        int status;
        switch (pushMode) {
            case UNAVAILABLE -> status = 503;
            case TIMEOUT -> {
                pause(5_000);
                status = 503;
            }
            default -> status = pushVerdict.apply(body);
        }
        if (status / 100 == 2) {
            pushKeys.add(key);
        }
        byte[] answer = ("{\"status\":" + status + "}").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, answer.length);
        exchange.getResponseBody().write(answer);
        exchange.close();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis); // the injected fault: a gateway that does not answer in time
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void close() {
        push.stop(0);
        if (smtp != null) {
            smtp.stop();
        }
    }
}
