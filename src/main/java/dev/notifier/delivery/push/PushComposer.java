package dev.notifier.delivery.push;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.delivery.LocalizedText;
import dev.notifier.delivery.UndeliverableException;
import dev.notifier.event.TransferEvent;
import org.apache.camel.Exchange;
import org.apache.camel.Message;

/**
 * The push gateway's request, built from the claimed notification alone: the contract's JSON body,
 * its {@code Idempotency-Key} (the same on every attempt) and the bearer token. Every header the
 * request carries is set here, after all others were removed: nothing else can add one.
 */
public class PushComposer {

    private final JsonMapper mapper = JsonMapper.builder().build();
    private final LocalizedText text;
    private final String authorization;

    /** @param token the gateway's bearer token, or {@code null} when it wants none */
    public PushComposer(LocalizedText text, String token) {
        this.text = text;
        this.authorization = token == null ? null : "Bearer " + token;
    }

    /** Replaces the message with the request for the notification in its body. */
    public void compose(Exchange exchange) {
        Message message = exchange.getMessage();
        ClaimedNotification notification = message.getBody(ClaimedNotification.class);
        String body = body(notification.readEvent());
        message.getHeaders().clear();
        message.setHeader(Exchange.CONTENT_TYPE, "application/json; charset=utf-8");
        message.setHeader("Idempotency-Key", notification.key().idempotencyKey());
        if (authorization != null) {
            message.setHeader("Authorization", authorization);
        }
        message.setBody(body);
    }

    /** The request body; whatever stops it from being built stops it every time ({@link UndeliverableException}). */
    public String body(TransferEvent event) {
        try {
            ObjectNode body = mapper.createObjectNode();
            body.put("token", event.recipient().pushToken());
            body.put("title", text.title(event));
            body.put("body", text.shortBody(event));
            ObjectNode data = body.putObject("data");
            data.put("eventId", event.eventId().toString());
            data.put("transferId", event.transferId());
            data.put("type", event.type());
            return body.toString();
        } catch (RuntimeException e) {
            throw new UndeliverableException("cannot compose the push request: " + e.getMessage(), e);
        }
    }
}
