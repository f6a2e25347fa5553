package dev.notifier.delivery.http;

import dev.notifier.delivery.provider.Providers;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.notifier.delivery.Attempt;
import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.delivery.ProviderRejectedException;
import dev.notifier.delivery.UndeliverableException;
import dev.notifier.delivery.template.Templates;
import dev.notifier.event.Channel;
import dev.notifier.event.ChannelCatalog;
import dev.notifier.event.TransferEvent;
import dev.notifier.event.UntrustedText;
import dev.notifier.trace.TraceParent;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.Message;

/**
 * The two steps every HTTP channel's route shares (send-push, send-line, the next one): the request,
 * built from the claimed notification alone, and the reading of the provider's answer by the
 * channel's rules. The route sets the channel's own headers (its idempotency key, its content type)
 * between them, in plain sight.
 */
public class HttpChannels {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<Channel, HttpChannel> channels;
    private final ChannelCatalog catalog;
    private final Templates templates;
    private final Providers providers;
    /** A provider's own bearer token (a fallback gateway's), where it is not the channel's. */
    private final Map<String, String> providerAuthorization;

    public HttpChannels(Map<Channel, HttpChannel> channels, ChannelCatalog catalog, Templates templates,
                        Providers providers, Map<String, String> providerTokens) {
        this.channels = Map.copyOf(channels);
        this.catalog = catalog;
        this.templates = templates;
        this.providers = providers;
        Map<String, String> authorization = new java.util.HashMap<>();
        providerTokens.forEach((provider, token) -> authorization.put(provider, "Bearer " + token));
        this.providerAuthorization = Map.copyOf(authorization);
    }

    /**
     * Replaces the message with the request for the claimed notification in its body: the rendered
     * {@code request.json}, and no header but the bearer token; every other header camel-http will send
     * is set after this, by the route (routes/http-provider), the provider's key from the attempt.
     * Whatever stops the request from being built stops it every time.
     */
    public void compose(Exchange exchange, String provider) {
        Message message = exchange.getMessage();
        // from the attempt, not the body: after a failover the body is the request the last provider got
        Attempt attempt = exchange.getProperty(Attempt.PROPERTY, Attempt.class);
        ClaimedNotification notification = attempt.notification();
        HttpChannel channel = channel(notification);
        TransferEvent event = notification.readEvent();
        String body = templates.render(channel.channel(), HttpChannel.REQUEST, event,
                catalog.addressOf(event.recipient(), channel.channel()));
        try {
            JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new UndeliverableException("the " + channel.channel().id() + " request is not JSON: " + e.getOriginalMessage(), e);
        }
        message.getHeaders().clear();
        String authorization = providerAuthorization.getOrDefault(provider, channel.authorization());
        if (authorization != null) {
            message.setHeader("Authorization", authorization);
        }
        // the send's span, so the provider's side joins the trace (while tracing is on)
        String traceparent = attempt.traceparent();
        if (traceparent != null) {
            message.setHeader(TraceParent.TRACEPARENT, traceparent);
        }
        message.setBody(body);
    }

    /** The provider's answer by the channel's rules, told to the provider (its circuit, a Retry-After). */
    public void check(Exchange exchange, String provider) {
        providers.answered(exchange, provider, () -> check(exchange));
    }

    /** The provider's answer, as camel-http left it (throwExceptionOnFailure off), by the channel's rules. */
    void check(Exchange exchange) {
        Attempt attempt = exchange.getProperty(Attempt.PROPERTY, Attempt.class);
        ClaimedNotification notification = attempt.notification();
        Integer code = exchange.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE, Integer.class);
        check(channel(notification), code == null ? 0 : code, exchange.getMessage().getBody(String.class));
    }

    static void check(HttpChannel channel, int status, String body) {
        if (channel.delivered().contains(status)) {
            return;
        }
        String reason = channel.provider() + " answered HTTP " + status
                + (body == null || body.isBlank() ? "" : ": " + UntrustedText.oneLine(body, 300));
        throw new ProviderRejectedException(reason, !channel.retried().contains(status));
    }

    private HttpChannel channel(ClaimedNotification notification) {
        HttpChannel channel = channels.get(notification.key().channel());
        if (channel == null) {
            throw new UndeliverableException("channel " + notification.key().channel() + " has no HTTP settings");
        }
        return channel;
    }
}
