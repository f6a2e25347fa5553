package dev.notifier.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.notifier.ops.PeerInbox;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A push gateway on 127.0.0.1 that takes the contract's request ({@code POST}, JSON with token,
 * title, body and data, an {@code Idempotency-Key}) and honours the key: a key it accepted before is
 * answered 200 again without a second delivery. Two twists show Notifier's failure handling: the first
 * attempt of every {@value #BUSY_EVERY}th new key is answered 503 (retried with backoff), and a token
 * starting with {@value #UNREGISTERED_TOKEN_PREFIX} is answered 404 (FAILED at once).
 */
final class EmbeddedPushGateway implements PeerInbox, AutoCloseable {

    static final String PATH = "/push";
    static final int BUSY_EVERY = 4;
    static final String UNREGISTERED_TOKEN_PREFIX = "unregistered-";

    private final JsonMapper mapper = JsonMapper.builder().build();
    private final Map<String, Integer> attemptsByKey = new HashMap<>();
    private final Map<String, ReceivedMessage> delivered = new LinkedHashMap<>();
    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
        Thread thread = new Thread(r, "demo-push-gateway");
        thread.setDaemon(true);
        return thread;
    });

    private EmbeddedPushGateway(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        server.createContext(PATH, this::handle);
        server.setExecutor(executor);
    }

    static EmbeddedPushGateway start(int port) throws IOException {
        EmbeddedPushGateway gateway = new EmbeddedPushGateway(port);
        gateway.server.start();
        return gateway;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
    }

    @Override
    public synchronized List<ReceivedMessage> received(int limit) {
        List<ReceivedMessage> newestFirst = new ArrayList<>(delivered.values());
        Collections.reverse(newestFirst);
        return List.copyOf(newestFirst.subList(0, Math.min(limit, newestFirst.size())));
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Answer answer = answer(exchange.getRequestMethod(), exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                    exchange.getRequestBody().readAllBytes());
            byte[] body = answer.json().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), body.length);
            exchange.getResponseBody().write(body);
        }
    }

    private synchronized Answer answer(String method, String key, byte[] content) {
        if (!"POST".equals(method)) {
            return new Answer(405, "{\"error\":\"POST only\"}");
        }
        if (key == null || key.isBlank()) {
            return new Answer(400, "{\"error\":\"Idempotency-Key header missing\"}");
        }
        JsonNode request = readRequest(content);
        if (request == null) {
            return new Answer(400, "{\"error\":\"expected JSON with token, title, body and data\"}");
        }
        if (delivered.containsKey(key)) {
            return new Answer(200, "{\"status\":\"already delivered\"}");
        }
        int attempt = attemptsByKey.merge(key, 1, Integer::sum);
        if (attempt == 1 && attemptsByKey.size() % BUSY_EVERY == 0) {
            return new Answer(503, "{\"error\":\"busy, try again later\"}");
        }
        String token = request.get("token").asText();
        if (token.startsWith(UNREGISTERED_TOKEN_PREFIX)) {
            return new Answer(404, "{\"error\":\"device token not registered\"}");
        }
        delivered.put(key, new ReceivedMessage("PUSH", key, Masks.token(token), request.get("title").asText(),
                request.get("body").asText(), Instant.now()));
        return new Answer(200, "{\"status\":\"accepted\"}");
    }

    private JsonNode readRequest(byte[] content) {
        try {
            JsonNode json = mapper.readTree(content);
            boolean complete = json != null && json.path("token").isTextual() && json.path("title").isTextual()
                    && json.path("body").isTextual() && json.path("data").isObject();
            return complete ? json : null;
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private record Answer(int status, String json) {
    }
}
