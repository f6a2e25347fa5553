package dev.notifier.config;

import dev.notifier.delivery.email.SmtpSender;
import dev.notifier.delivery.email.SmtpSettings;
import dev.notifier.delivery.http.RetryAfterOnly;
import dev.notifier.delivery.provider.Provider;
import dev.notifier.delivery.provider.Providers;
import dev.notifier.delivery.provider.RetryAfter;
import dev.notifier.delivery.provider.SharedRate;
import dev.notifier.event.Channel;
import dev.notifier.event.ChannelCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.Registry;

/**
 * The providers of each channel, in failover order: {@code <channel>-primary}, and for email and push a
 * {@code -fallback} when NOTIFIER_SMTP_FALLBACK_HOST or NOTIFIER_PUSH_FALLBACK_URL is set. Each has its
 * circuit and pause ({@link Provider}); the send routes' failover asks the next one only when the one
 * before surely did not take the message, as many times as there are providers after the first
 * ({@code notifier.channel.<channel>.failover-attempts}, set here). A fallback that is not configured leaves
 * its route out.
 */
final class ProviderBeans {

    private final CamelContext context;
    private final ServiceProperties p;
    private final Registry registry;
    private final Providers providers;

    ProviderBeans(CamelContext context, ServiceProperties p) {
        this.context = context;
        this.p = p;
        this.registry = context.getRegistry();
        // without a Retry-After, the pause is our first backoff
        this.providers = new Providers(new RetryAfter(Duration.ofMillis(p.getLong("notifier.delivery.retry-base-millis",
                1000))));
    }

    Providers bind(ChannelCatalog channels) {
        for (Channel channel : channels.channels()) {
            providers.add(provider(channel.id() + "-primary", channel.id()));
        }
        if (hasEmailFallback() && channels.contains(Channel.EMAIL)) {
            providers.add(provider("email-fallback", "email"));
        }
        if (hasPushFallback() && channels.contains(Channel.of("PUSH"))) {
            providers.add(provider("push-fallback", "push"));
        }
        registry.bind("providers", providers);
        registry.bind("retryAfterOnly", new RetryAfterOnly());
        var properties = context.getPropertiesComponent();
        properties.addOverrideProperty("notifier.channel.email.failover-attempts", hasEmailFallback() ? "1" : "0");
        properties.addOverrideProperty("notifier.channel.push.failover-attempts", hasPushFallback() ? "1" : "0");
        return providers;
    }

    /** The routes of providers that are not configured: left out, as a channel not in use leaves out its own. */
    List<String> unconfigured() {
        List<String> routes = new ArrayList<>();
        if (!hasEmailFallback()) {
            routes.add("email-fallback");
        }
        if (!hasPushFallback()) {
            routes.add("push-fallback");
        }
        return routes;
    }

    /** The second relay: its own host and port; TLS, user and password the primary's unless given. */
    SmtpSender emailFallback(SmtpSettings primary) {
        SmtpSettings settings = p.find("notifier.smtp.fallback.tls").map(tls -> new SmtpSettings(primary.from(),
                SmtpSettings.Tls.parse(tls), primary.truststore(), primary.truststorePassword(), primary.utf8(),
                primary.timeout(), primary.connections(), primary.messagesPerConnection(), primary.maxIdle(),
                primary.connectionWait())).orElse(primary);
        String user = p.find("notifier.smtp.fallback.user").or(() -> p.find("notifier.smtp.user")).orElse(null);
        String password = p.find("notifier.smtp.fallback.password").or(() -> p.find("notifier.smtp.password")).orElse(null);
        return new SmtpSender(settings, providers.get("email-fallback"), user, password);
    }

    /** A provider's own bearer token, where it has one: the push fallback's, or the primary's by default. */
    Map<String, String> tokens() {
        return p.find("notifier.channel.push.fallback.token").map(token -> Map.of("push-fallback", token)).orElse(Map.of());
    }

    boolean hasEmailFallback() {
        return p.find("notifier.smtp.fallback.host").isPresent();
    }

    private boolean hasPushFallback() {
        return p.find("notifier.channel.push.fallback.url").isPresent();
    }

    private Provider provider(String name, String channel) {
        int rate = rate(name, channel);
        return new Provider(name, p.getInt("notifier.provider.circuit-failures", 5),
                Duration.ofMillis(p.getLong("notifier.provider.circuit-open-millis", 30_000)),
                Duration.ofSeconds(p.getLong("notifier.provider.retry-after-max-seconds", 300)),
                rate == 0 ? null : new SharedRate(registry.lookupByNameAndType("dataSource", DataSource.class), name, rate));
    }

    /**
     * Sends a second to this provider for the whole deployment, 0 for no limit: the provider's own
     * ({@code notifier.provider.<name>.rate}), else its channel's, which applies to each of the
     * channel's providers: notifier.smtp.rate for email (with the relay's settings), else
     * notifier.channel.<channel>.rate.
     */
    private int rate(String name, String channel) {
        String channelKey = channel.equals("email") ? "notifier.smtp.rate" : "notifier.channel." + channel + ".rate";
        String key = p.find("notifier.provider." + name + ".rate").isPresent() ? "notifier.provider." + name + ".rate" : channelKey;
        String text = p.find(key).map(String::strip).orElse("");
        if (text.isEmpty() || text.equals("unlimited")) {
            return 0;
        }
        try {
            int rate = Integer.parseInt(text);
            if (rate < 0) {
                throw new NumberFormatException();
            }
            return rate;
        } catch (NumberFormatException e) {
            throw new IllegalStateException(key + " must be a whole number of sends per second (0 or empty for no limit): '"
                    + text + "'");
        }
    }

}
