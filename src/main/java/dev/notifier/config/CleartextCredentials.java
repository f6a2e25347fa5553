package dev.notifier.config;

import dev.notifier.delivery.email.SmtpSettings;
import dev.notifier.event.Channel;
import dev.notifier.event.ChannelCatalog;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import org.apache.camel.CamelContext;
import org.apache.camel.EndpointAware;
import org.apache.camel.Navigate;
import org.apache.camel.Processor;
import org.apache.camel.Route;
import org.apache.camel.component.http.HttpEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Credentials never travel in clear to another host. The service refuses to start when SMTP AUTH
 * ({@code NOTIFIER_SMTP_USER} or {@code _PASSWORD} set) would go without TLS, or an HTTP channel's bearer
 * token ({@code NOTIFIER_PUSH_TOKEN}, {@code NOTIFIER_LINE_TOKEN}, {@code notifier.channel.<channel>.token})
 * over {@code http://}, to a host that does not resolve to a loopback address only; unless
 * {@code NOTIFIER_ALLOW_CLEARTEXT=true}, when each is a WARN instead. Only channels in use count: settings a
 * deployment never sends with hold nothing. A database URL that leaves the machine without TLS pgjdbc
 * insists on ({@code sslmode=require}, {@code verify-ca} or {@code verify-full}) is a WARN.
 *
 * <p>SMTP is read from configuration, before anything connects. An HTTP channel's URL may be anywhere in its
 * route (routes/send-&lt;channel&gt;), so the endpoints its route sends to are read once the routes exist and
 * before any of them starts.
 */
final class CleartextCredentials {

    static final String ALLOW = "notifier.allow-cleartext";
    private static final Logger LOG = LoggerFactory.getLogger("dev.notifier.config");
    /** The sslmodes in which pgjdbc fails rather than talk to the server in clear. */
    private static final Set<String> ENCRYPTED = Set.of("require", "verify-ca", "verify-full");

    private CleartextCredentials() {
    }

    /** At start: the database WARN and the SMTP check now, the HTTP channels' once their routes exist. */
    static void check(CamelContext context, ServiceProperties p, ChannelCatalog channels) throws Exception {
        databaseInClear(p.get("notifier.db.url")).ifPresent(LOG::warn);
        boolean allowed = p.getBoolean(ALLOW, false);
        refuseOrWarn(smtpInClear(p::find, channels), allowed);
        // before any route starts (a listener's onCamelContextStarted runs with every route built and stopped)
        context.addStartupListener((started, alreadyStarted) -> refuseOrWarn(tokensInClear(started, p::find, channels), allowed));
    }

    static void refuseOrWarn(List<String> inClear, boolean allowed) {
        if (allowed) {
            inClear.forEach(problem -> LOG.warn("{} (allowed by NOTIFIER_ALLOW_CLEARTEXT=true)", problem));
        } else if (!inClear.isEmpty()) {
            throw new IllegalStateException("Refusing to start: " + String.join("; ", inClear) + ". Anyone on the network"
                    + " between could read and reuse them. Use TLS, or set NOTIFIER_ALLOW_CLEARTEXT=true if that network is"
                    + " yours alone.");
        }
    }

    static List<String> smtpInClear(Function<String, Optional<String>> property, ChannelCatalog channels) {
        if (!channels.contains(Channel.EMAIL)) {
            return List.of();
        }
        List<String> credentials = new ArrayList<>();
        property.apply("notifier.smtp.user").ifPresent(user -> credentials.add("NOTIFIER_SMTP_USER"));
        property.apply("notifier.smtp.password").ifPresent(password -> credentials.add("NOTIFIER_SMTP_PASSWORD"));
        List<String> inClear = new ArrayList<>();
        String tls = property.apply("notifier.smtp.tls").orElse("none");
        String host = property.apply("notifier.smtp.host").orElse("localhost");
        if (!credentials.isEmpty() && SmtpSettings.Tls.parse(tls) == SmtpSettings.Tls.NONE && !isLoopback(host)) {
            inClear.add("SMTP AUTH would send " + String.join(" and ", credentials) + " in clear to " + host
                    + " (NOTIFIER_SMTP_HOST), which is not this machine, since NOTIFIER_SMTP_TLS is none (use starttls or smtps)");
        }
        // the fallback relay: its own credentials and TLS, or the primary's
        Optional<String> fallback = property.apply("notifier.smtp.fallback.host");
        boolean fallbackCredentials = !credentials.isEmpty() || property.apply("notifier.smtp.fallback.user").isPresent()
                || property.apply("notifier.smtp.fallback.password").isPresent();
        if (fallback.isPresent() && fallbackCredentials && !isLoopback(fallback.get()) && SmtpSettings.Tls.parse(
                property.apply("notifier.smtp.fallback.tls").orElse(tls)) == SmtpSettings.Tls.NONE) {
            inClear.add("SMTP AUTH would send the fallback relay's credentials in clear to " + fallback.get()
                    + " (NOTIFIER_SMTP_FALLBACK_HOST), which is not this machine, since its TLS is none"
                    + " (set NOTIFIER_SMTP_FALLBACK_TLS to starttls or smtps)");
        }
        return inClear;
    }

    /** Each HTTP channel in use with a bearer token, whose route sends to an {@code http://} URL of another host. */
    static List<String> tokensInClear(CamelContext context, Function<String, Optional<String>> property,
                                      ChannelCatalog channels) {
        List<String> inClear = new ArrayList<>();
        for (Channel channel : channels.channels()) {
            if (channel.equals(Channel.EMAIL)) {
                continue;
            }
            // each token against the endpoints it goes to: the fallback takes the primary's unless it has its own
            boolean token = property.apply(tokenKey(channel, "")).isPresent();
            boolean ownFallbackToken = property.apply(tokenKey(channel, "FALLBACK_")).isPresent();
            if (token) {
                tokenInClear(context, "send-" + channel.id(), tokenOf(channel, ""), urlOf(channel, ""), inClear);
                tokenInClear(context, channel.id() + "-primary", tokenOf(channel, ""), urlOf(channel, ""), inClear);
            }
            if (token || ownFallbackToken) {
                tokenInClear(context, channel.id() + "-fallback", tokenOf(channel, ownFallbackToken ? "FALLBACK_" : ""),
                        urlOf(channel, "FALLBACK_"), inClear);
            }
        }
        return inClear;
    }

    private static void tokenInClear(CamelContext context, String routeId, String token, String url, List<String> inClear) {
        Route route = context.getRoute(routeId);
        List<HttpEndpoint> endpoints = new ArrayList<>();
        if (route != null) {
            httpEndpoints(route.navigate(), endpoints);
        }
        for (HttpEndpoint endpoint : endpoints) {
            URI uri = endpoint.getHttpUri();
            if ("http".equalsIgnoreCase(uri.getScheme()) && !isLoopback(uri.getHost())) {
                inClear.add(token + " would go in clear over http:// to " + uri.getHost() + " (" + url
                        + "), which is not this machine (use https://)");
            }
        }
    }

    /** The WARN for a database URL that leaves this machine without TLS, if it does. */
    static Optional<String> databaseInClear(String url) {
        Properties parsed = org.postgresql.Driver.parseURL(url, null);
        if (parsed == null) {
            // not a PostgreSQL URL: Database refuses it, naming the variable
            return Optional.empty();
        }
        // pgjdbc's own rule: sslmode, else ssl=true means verify-full, else prefer (TLS if offered, clear if not)
        String ssl = parsed.getProperty("ssl");
        String mode = parsed.getProperty("sslmode", ssl != null && (ssl.isEmpty() || Boolean.parseBoolean(ssl))
                ? "verify-full" : "prefer");
        List<String> remote = Arrays.stream(parsed.getProperty("PGHOST", "localhost").split(","))
                .filter(host -> !isLoopback(host)).toList();
        if (ENCRYPTED.contains(mode.toLowerCase(Locale.ROOT)) || remote.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("NOTIFIER_DB_URL points to " + String.join(", ", remote) + ", which is not this machine, with sslmode "
                + mode + ": the database password and customers' data may cross the network in clear. Add"
                + " sslmode=verify-full (and sslrootcert=<the server's CA>) to the URL, or at least sslmode=require");
    }

    /** True when the host resolves to loopback addresses only (localhost, 127.x, ::1); an unknown host is not. */
    static boolean isLoopback(String host) {
        if (host == null || host.isBlank()) {
            return false;
        }
        try {
            return Arrays.stream(InetAddress.getAllByName(host)).allMatch(InetAddress::isLoopbackAddress);
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static List<HttpEndpoint> httpEndpoints(Navigate<Processor> steps, List<HttpEndpoint> found) {
        if (steps != null && steps.hasNext()) {
            for (Processor step : steps.next()) {
                if (step instanceof EndpointAware aware && aware.getEndpoint() instanceof HttpEndpoint http) {
                    found.add(http);
                }
                if (step instanceof Navigate<?> inner) {
                    @SuppressWarnings("unchecked")
                    Navigate<Processor> next = (Navigate<Processor>) inner;
                    httpEndpoints(next, found);
                }
            }
        }
        return found;
    }

    /** The contract's variables for its own channels; a channel added by configuration has its properties. */
    private static String tokenOf(Channel channel, String which) {
        return isContractChannel(channel) ? "NOTIFIER_" + channel.name() + "_" + which + "TOKEN" : tokenKey(channel, which);
    }

    /** The token's property: {@code notifier.channel.<channel>.token}, or {@code .fallback.token} for FALLBACK_. */
    private static String tokenKey(Channel channel, String which) {
        return "notifier.channel." + channel.id() + "." + which.replace("_", ".").toLowerCase(Locale.ROOT) + "token";
    }

    private static String urlOf(Channel channel, String which) {
        return isContractChannel(channel) ? "NOTIFIER_" + channel.name() + "_" + which + "URL"
                : "the URL in routes/send-" + channel.id() + ".camel.yaml";
    }

    private static boolean isContractChannel(Channel channel) {
        return channel.equals(Channel.PUSH) || channel.equals(Channel.LINE);
    }
}
