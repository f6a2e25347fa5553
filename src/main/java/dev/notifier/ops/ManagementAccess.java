package dev.notifier.ops;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.User;
import io.vertx.ext.auth.authentication.AuthenticationProvider;
import io.vertx.ext.web.handler.BasicAuthHandler;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import org.apache.camel.component.platform.http.vertx.auth.AuthenticationConfig;

/**
 * Who may read the management port. The status page and its API show customers' transfers: with
 * {@code NOTIFIER_HTTP_PASSWORD} set they take HTTP Basic auth (user {@code operator}); health and
 * metrics stay open for probes and scrapers, and say nothing about a customer. A port bound beyond
 * loopback without a password is refused at start: anyone who reaches it would read the page.
 */
final class ManagementAccess {

    static final String USER = "operator";
    /** What the password protects: the page, its script and every /api URL. */
    static final List<String> PROTECTED_PATHS = List.of("/", "/status.js", "/api/*");

    private ManagementAccess() {
    }

    static void requireSafeBinding(String host, String password) {
        if (password != null) {
            return;
        }
        boolean loopback;
        try {
            loopback = InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException("Cannot resolve NOTIFIER_HTTP_HOST '" + host + "': " + e.getMessage(), e);
        }
        if (!loopback) {
            throw new IllegalStateException("Refusing to start: the management port would listen on " + host
                    + " (NOTIFIER_HTTP_HOST), beyond this machine, and NOTIFIER_HTTP_PASSWORD is not set, so anyone who"
                    + " reaches it could read customers' transfers on the status page. Set NOTIFIER_HTTP_PASSWORD, or bind"
                    + " to 127.0.0.1.");
        }
    }

    /** Basic auth on {@link #PROTECTED_PATHS}, or none without a password. */
    static AuthenticationConfig config(String password) {
        AuthenticationConfig config = new AuthenticationConfig();
        if (password == null) {
            config.setEnabled(false);
            return config;
        }
        config.setEnabled(true);
        for (String path : PROTECTED_PATHS) {
            AuthenticationConfig.AuthenticationConfigEntry entry = new AuthenticationConfig.AuthenticationConfigEntry();
            entry.setPath(path);
            entry.setAuthenticationProviderFactory(vertx -> new OperatorPassword(password));
            entry.setAuthenticationHandlerFactory(new AuthenticationConfig.AuthenticationHandlerFactory() {
                @Override
                public <T extends AuthenticationProvider> io.vertx.ext.web.handler.AuthenticationHandler
                        createAuthenticationHandler(T provider) {
                    return BasicAuthHandler.create(provider, "Notifier");
                }
            });
            config.getEntries().add(entry);
        }
        return config;
    }

    /** The one operator account; compared in constant time. */
    private record OperatorPassword(String password) implements AuthenticationProvider {

        @Override
        public void authenticate(JsonObject credentials, Handler<AsyncResult<User>> resultHandler) {
            boolean user = constantTimeEquals(USER, credentials.getString("username"));
            boolean secret = constantTimeEquals(password, credentials.getString("password"));
            resultHandler.handle(user & secret ? Future.succeededFuture(User.fromName(USER))
                    : Future.failedFuture("wrong user or password"));
        }

        private static boolean constantTimeEquals(String expected, String given) {
            return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                    String.valueOf(given).getBytes(StandardCharsets.UTF_8));
        }
    }
}
