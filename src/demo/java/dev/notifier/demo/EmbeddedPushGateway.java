package dev.notifier.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * A push gateway on 127.0.0.1 that takes the contract's request ({@code POST}, JSON with token,
 * title, body and data, an {@code Idempotency-Key}) and honours the key: a key it accepted before is
 * answered 200 again without a second delivery. Two twists show Notifier's failure handling: the
 * primary gateway answers the first attempt of every {@value #BUSY_EVERY}th new key 503 (Notifier fails
 * over to the fallback gateway: a 503 says the message was not taken), and a token starting with
 * {@value #UNREGISTERED_TOKEN_PREFIX} is answered 404 by either (FAILED at once, never failed over).
 */
final class EmbeddedPushGateway extends EmbeddedHttpPeer {

    static final String PATH = "/push";
    static final int BUSY_EVERY = 4;
    static final String UNREGISTERED_TOKEN_PREFIX = "unregistered-";

    private final JsonMapper mapper = JsonMapper.builder().build();
    private final Map<String, Integer> attemptsByKey = new HashMap<>();
    private final boolean busySometimes;

    private EmbeddedPushGateway(int port, String name, boolean busySometimes) throws IOException {
        super(port, PATH, name);
        this.busySometimes = busySometimes;
    }

    /** The primary gateway: busy (503) for the first attempt of every {@value #BUSY_EVERY}th new key. */
    static EmbeddedPushGateway start(int port) throws IOException {
        return serve(new EmbeddedPushGateway(port, "demo-push-gateway", true));
    }

    /** The fallback gateway ({@code notifier.channel.push.fallback.url}): never busy. */
    static EmbeddedPushGateway startFallback(int port) throws IOException {
        return serve(new EmbeddedPushGateway(port, "demo-push-fallback", false));
    }

    private static EmbeddedPushGateway serve(EmbeddedPushGateway peer) throws IOException {
        peer.serve();
        return peer;
    }

    @Override
    protected Answer answer(String method, HttpExchange exchange, byte[] content) {
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
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
        if (busySometimes && attempt == 1 && attemptsByKey.size() % BUSY_EVERY == 0) {
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
}
