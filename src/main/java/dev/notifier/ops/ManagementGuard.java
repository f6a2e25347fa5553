package dev.notifier.ops;

import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.HostAndPort;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first handler of every request on the management port, whatever route serves it: it checks
 * the {@code Host} header, puts the headers a page with customers' data needs on every response,
 * and asks for the operator's password on every path but {@code /health/*} and {@code /metrics}.
 * Its failure handler turns a request the server refuses (a body over the limit, a malformed one)
 * into one WARN line and the status code, instead of Vert.x's ERROR with a stack.
 */
final class ManagementGuard {

    static final Logger LOG = LoggerFactory.getLogger("dev.notifier.http");
    static final String REALM = "Basic realm=\"Notifier\", charset=\"UTF-8\"";
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline';"
            + " frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    /** A refused Host is logged at most this often: a rebinding page may ask many times a second. */
    private static final long REFUSAL_LOG_INTERVAL_MILLIS = 60_000;

    private final Set<String> hostNames;
    private final String password;
    private final LoginThrottle throttle;
    private final Clock clock;
    private final AtomicLong lastRefusalLogged = new AtomicLong(Long.MIN_VALUE / 2);
    private final AtomicLong refusalsSinceLogged = new AtomicLong();

    ManagementGuard(ManagementAccess access, Clock clock) {
        this.hostNames = access.hostNames();
        this.password = access.password();
        this.throttle = new LoginThrottle(clock);
        this.clock = clock;
    }

    Handler<RoutingContext> requests() {
        return this::handle;
    }

    Handler<RoutingContext> failures() {
        return this::fail;
    }

    private void handle(RoutingContext ctx) {
        ctx.addHeadersEndHandler(ignored -> securityHeaders(ctx.response().headers()));
        HostAndPort authority = ctx.request().authority();
        if (authority == null || !hostNames.contains(ManagementAccess.normalHost(authority.host()))) {
            refuseHost(ctx, authority);
            return;
        }
        String path;
        try {
            path = ctx.normalizedPath();
        } catch (IllegalArgumentException undecodable) {
            ctx.fail(400, undecodable);
            return;
        }
        if (password == null || isOpen(path)) {
            ctx.next();
            return;
        }
        String client = clientOf(ctx);
        Duration wait = throttle.waitFor(client);
        if (!wait.isZero()) {
            long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
            end(ctx.response().setStatusCode(429).putHeader("Retry-After", String.valueOf(seconds)),
                    "Too many failed logins from this address: try again in " + seconds + " s.\n");
            return;
        }
        BasicCredentials given = BasicCredentials.of(ctx.request().getHeader("Authorization"));
        if (given != null && given.are(ManagementAccess.USER, password)) {
            throttle.succeeded(client);
            ctx.next();
            return;
        }
        if (given != null) {
            LoginThrottle.Failures failures = throttle.failed(client);
            LOG.warn("management port: failed login from {} as user '{}' on {} ({} in a row{})", client,
                    printable(given.user(), 64), printable(path, 200), failures.count(),
                    failures.notBefore().isAfter(failures.last())
                            ? "; its next try is checked in " + Duration.between(failures.last(), failures.notBefore()).toSeconds() + " s"
                            : "");
        }
        end(ctx.response().setStatusCode(401).putHeader("WWW-Authenticate", REALM),
                "This page shows customers' transfers: log in as " + ManagementAccess.USER + ".\n");
    }

    /** Probes and scrapers have no password, and these URLs say nothing about a customer. */
    static boolean isOpen(String normalizedPath) {
        return normalizedPath.equals("/metrics") || normalizedPath.startsWith("/health/");
    }

    static void securityHeaders(MultiMap headers) {
        headers.set("Cache-Control", "no-store");
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        headers.set("X-Frame-Options", "DENY");
        headers.set("Referrer-Policy", "no-referrer");
    }

    private void refuseHost(RoutingContext ctx, HostAndPort authority) {
        String named = authority == null ? "no Host header" : "Host '" + printable(authority.host(), 100) + "'";
        long now = clock.millis();
        long last = lastRefusalLogged.get();
        long refused = refusalsSinceLogged.incrementAndGet();
        if (now - last >= REFUSAL_LOG_INTERVAL_MILLIS && lastRefusalLogged.compareAndSet(last, now)) {
            refusalsSinceLogged.set(0);
            LOG.warn("management port: refused a request from {} for {}: not a name of this server (add it to"
                    + " NOTIFIER_HTTP_ALLOWED_HOSTS if it is){}", clientOf(ctx), named,
                    refused > 1 ? "; " + (refused - 1) + " more refused since the last such line" : "");
        }
        end(ctx.response().setStatusCode(421), "Misdirected request: this server does not answer for " + named + ".\n");
    }

    private void fail(RoutingContext ctx) {
        int status = ctx.statusCode();
        Throwable failure = ctx.failure();
        if (status < 0 && failure instanceof HttpException http) {
            status = http.getStatusCode();
        }
        if (status < 0 && failure instanceof IllegalArgumentException) {
            // Vert.x cannot decode the path ("%zz"): the client's mistake, not ours
            status = 400;
        }
        if (status < 0) {
            status = 500;
        }
        String path = printable(ctx.request().path(), 200);
        if (status >= 500) {
            LOG.error("management port: {} {} from {} failed", ctx.request().method(), path, clientOf(ctx), failure);
        } else {
            LOG.warn("management port: refused {} {} from {}: {} {}", ctx.request().method(), path, clientOf(ctx),
                    status, reason(status, failure));
        }
        HttpServerResponse response = ctx.response();
        if (!response.ended() && !response.closed() && !response.headWritten()) {
            end(response.setStatusCode(status), reason(status, failure) + "\n");
        }
    }

    private static String reason(int status, Throwable failure) {
        return switch (status) {
            case 413 -> "request body too large";
            case 400 -> "malformed request";
            case 404 -> "not found";
            case 405 -> "method not allowed";
            default -> failure == null || failure.getMessage() == null ? "HTTP " + status
                    : printable(failure.getMessage(), 200);
        };
    }

    private static void end(HttpServerResponse response, String text) {
        response.putHeader("Content-Type", "text/plain; charset=utf-8").end(text);
    }

    private static String clientOf(RoutingContext ctx) {
        SocketAddress remote = ctx.request().remoteAddress();
        return remote == null ? "an unknown address" : remote.hostAddress();
    }

    /** What a client sent, safe for one log line: control characters replaced, cut to {@code max}. */
    static String printable(String text, int max) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), max));
        text.codePoints().limit(max).forEach(c -> out.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return text.codePointCount(0, text.length()) > max ? out + "…" : out.toString();
    }
}
