package dev.notifier.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * LINE's Messaging API push message endpoint, as far as Notifier relies on it, on 127.0.0.1:
 * {@code POST /v2/bot/message/push} with the channel access token as a bearer token, JSON with
 * {@code to} and {@code messages}, and {@code X-Line-Retry-Key}. Like LINE, it accepts a retry key
 * once and answers {@code 409} with the accepted request's id to any later request with that key.
 * Two twists show why the key matters: the first request of every {@value #LOST_ANSWER_EVERY}th new
 * key is accepted (delivered) but answered {@code 500}, as if the answer were lost on the way back, so
 * Notifier tries again with the same key and gets the 409 (delivered once, not twice); and a user id
 * starting with {@value #BLOCKED_USER_PREFIX} is answered {@code 400} (FAILED at once).
 */
final class EmbeddedLineApi extends EmbeddedHttpPeer {

    static final String PATH = "/v2/bot/message/push";
    static final String TOKEN = "demo-channel-access-token";
    static final int LOST_ANSWER_EVERY = 3;
    static final String BLOCKED_USER_PREFIX = "Ublocked";

    private final JsonMapper mapper = JsonMapper.builder().build();
    /** Accepted retry key → the request id LINE gave it. */
    private final Map<String, String> acceptedKeys = new HashMap<>();
    private int newKeys;

    private EmbeddedLineApi(int port) throws IOException {
        super(port, PATH, "demo-line-api");
    }

    static EmbeddedLineApi start(int port) throws IOException {
        EmbeddedLineApi peer = new EmbeddedLineApi(port);
        peer.serve();
        return peer;
    }

    @Override
    protected Answer answer(String method, HttpExchange exchange, byte[] content) {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        String retryKey = exchange.getRequestHeaders().getFirst("X-Line-Retry-Key");
        if (!"POST".equals(method)) {
            return new Answer(405, "{\"message\":\"POST only\"}");
        }
        if (!("Bearer " + TOKEN).equals(authorization)) {
            return new Answer(401, "{\"message\":\"Authentication failed due to the invalid access token\"}");
        }
        if (retryKey != null && !isUuid(retryKey)) {
            return new Answer(400, "{\"message\":\"The value of the X-Line-Retry-Key header is invalid\"}");
        }
        if (retryKey != null && acceptedKeys.containsKey(retryKey)) {
            return new Answer(409, "{\"message\":\"The retry key is already accepted\"}",
                    Map.of("x-line-accepted-request-id", acceptedKeys.get(retryKey)));
        }
        JsonNode request = readRequest(content);
        if (request == null) {
            return new Answer(400, "{\"message\":\"The request body has 1 error(s)\"}");
        }
        String to = request.get("to").asText();
        if (to.startsWith(BLOCKED_USER_PREFIX)) {
            return new Answer(400, "{\"message\":\"Failed to send messages\",\"details\":[{\"property\":\"to\","
                    + "\"message\":\"The user has blocked the bot\"}]}");
        }
        String requestId = UUID.randomUUID().toString();
        String key = retryKey == null ? requestId : retryKey;
        acceptedKeys.put(key, requestId);
        delivered.put(key, new ReceivedMessage("LINE", key, Masks.token(to), "", firstText(request), Instant.now()));
        if (retryKey != null && ++newKeys % LOST_ANSWER_EVERY == 0) {
            // delivered, but the answer "does not arrive": Notifier sees a 500 and tries again with the key
            return new Answer(500, "{\"message\":\"An error occurred in the backend server\"}");
        }
        return new Answer(200, "{\"sentMessages\":[{\"id\":\"" + Math.abs(requestId.hashCode()) + "\"}]}");
    }

    private static String firstText(JsonNode request) {
        JsonNode first = request.get("messages").get(0);
        return first.path("text").asText(first.path("altText").asText(""));
    }

    private static boolean isUuid(String text) {
        try {
            return UUID.fromString(text).toString().equalsIgnoreCase(text);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private JsonNode readRequest(byte[] content) {
        try {
            JsonNode json = mapper.readTree(content);
            boolean complete = json != null && json.path("to").isTextual() && json.path("messages").isArray()
                    && !json.path("messages").isEmpty() && json.path("messages").size() <= 5;
            return complete ? json : null;
        } catch (IOException e) {
            return null;
        }
    }
}
