package dev.notifier.delivery.push;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.notifier.delivery.LocalizedText;
import dev.notifier.delivery.UndeliverableException;
import dev.notifier.event.TransferEvent;

/** The push gateway's request body, built from the event's own fields. */
public class PushComposer {

    private final JsonMapper mapper = JsonMapper.builder().build();
    private final LocalizedText text;
    private final String token;

    /** @param token the gateway's bearer token, or {@code null} when it wants none */
    public PushComposer(LocalizedText text, String token) {
        this.text = text;
        this.token = token;
    }

    /** The Authorization header value, or {@code null} (no header) without a token. */
    public String authorization() {
        return token == null ? null : "Bearer " + token;
    }

    /** The request body; whatever stops it from being built stops it every time ({@link UndeliverableException}). */
    public String body(TransferEvent event) {
        try {
            return build(event);
        } catch (RuntimeException e) {
            throw new UndeliverableException("cannot compose the push request: " + e.getMessage(), e);
        }
    }

    private String build(TransferEvent event) {
        ObjectNode body = mapper.createObjectNode();
        body.put("token", event.recipient().pushToken());
        body.put("title", text.title(event));
        body.put("body", text.shortBody(event));
        ObjectNode data = body.putObject("data");
        data.put("eventId", event.eventId().toString());
        data.put("transferId", event.transferId());
        data.put("type", event.type());
        return body.toString();
    }
}
