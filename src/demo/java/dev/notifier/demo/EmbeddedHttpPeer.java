package dev.notifier.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.notifier.ops.PeerInbox;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * What the demo's HTTP providers share: a JDK HTTP server on 127.0.0.1 at one path, JSON answers, and
 * the messages delivered, by their idempotency key, for the status page. Each provider says how it
 * answers a request ({@link #answer}), under this object's lock.
 */
abstract class EmbeddedHttpPeer implements PeerInbox, AutoCloseable {

    /** What the provider answers: a status, a JSON body and response headers. */
    record Answer(int status, String json, Map<String, String> headers) {
        Answer(int status, String json) {
            this(status, json, Map.of());
        }
    }

    /** Delivered messages by their key, in delivery order; guarded by this object. */
    protected final Map<String, ReceivedMessage> delivered = new LinkedHashMap<>();
    private final String path;
    private final HttpServer server;
    private final ExecutorService executor;

    protected EmbeddedHttpPeer(int port, String path, String threadName) throws IOException {
        this.path = path;
        executor = Executors.newFixedThreadPool(4, r -> {
            Thread thread = new Thread(r, threadName);
            thread.setDaemon(true);
            return thread;
        });
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        server.createContext(path, this::handle);
        server.setExecutor(executor);
    }

    /** After the subclass is built: a request may come at once. */
    protected final void serve() {
        server.start();
    }

    /** The answer to one request; called under this object's lock. */
    protected abstract Answer answer(String method, HttpExchange request, byte[] body);

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Override
    public synchronized List<ReceivedMessage> received(int limit) {
        List<ReceivedMessage> newestFirst = new ArrayList<>(delivered.values());
        Collections.reverse(newestFirst);
        return List.copyOf(newestFirst.subList(0, Math.min(limit, newestFirst.size())));
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] content = exchange.getRequestBody().readAllBytes();
            Answer answer;
            synchronized (this) {
                answer = answer(exchange.getRequestMethod(), exchange, content);
            }
            byte[] body = answer.json().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            answer.headers().forEach(exchange.getResponseHeaders()::set);
            exchange.sendResponseHeaders(answer.status(), body.length);
            exchange.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
