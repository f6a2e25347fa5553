package dev.notifier.ops;

import io.vertx.core.net.impl.TCPServerBase;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.security.KeyStore;
import java.time.Clock;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpServer;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpServerConfiguration;
import org.apache.camel.support.jsse.KeyManagersParameters;
import org.apache.camel.support.jsse.KeyStoreParameters;
import org.apache.camel.support.jsse.SSLContextParameters;

/**
 * The management port: Camel's own Vert.x HTTP server, which serves the {@code platform-http:}
 * routes routes/status-*, health-* and metrics (camel-platform-http-main, which would normally add it, is
 * not available at this Camel version).
 *
 * <p>Vert.x reports a failed bind only in a log line and Camel would start anyway, without a status
 * page, health or metrics; a service that cannot be watched must not pass for healthy, so a busy
 * port fails start-up here, naming the port and the variable that sets it.
 *
 * <p>Every request passes {@link ManagementGuard} first (Host check, security headers, the
 * password), whichever route serves it; {@link ManagementAccess} says what it refuses to start with.
 */
public final class ManagementServer extends VertxPlatformHttpServer {

    static final long MAX_BODY_BYTES = 64 * 1024;

    private final String configuredHost;
    private final int configuredPort;
    private final ManagementAccess access;

    private ManagementServer(VertxPlatformHttpServerConfiguration configuration, ManagementAccess access) {
        super(configuration);
        this.configuredHost = configuration.getBindHost();
        this.configuredPort = configuration.getBindPort();
        this.access = access;
    }

    /** @param port 0 picks a free port (tests); {@link #getPort()} tells which */
    public static ManagementServer onPort(int port) {
        return create(ManagementAccess.loopback(), port);
    }

    /** Refuses (IllegalStateException) a binding {@link ManagementAccess#requireSafe()} calls unsafe. */
    public static ManagementServer create(ManagementAccess access, int port) {
        KeyStore keystore = access.requireSafe();
        VertxPlatformHttpServerConfiguration configuration = new VertxPlatformHttpServerConfiguration();
        configuration.setBindHost(access.host());
        configuration.setBindPort(port);
        // every management URL is a GET: a body beyond this is refused with 413 (one WARN line)
        configuration.setMaxBodySize(MAX_BODY_BYTES);
        // the guard asks for the password on every path but health and metrics: Camel's per-path auth stays off
        configuration.getAuthenticationConfig().setEnabled(false);
        if (keystore != null) {
            KeyStoreParameters store = new KeyStoreParameters();
            store.setKeyStore(keystore);
            KeyManagersParameters keys = new KeyManagersParameters();
            keys.setKeyStore(store);
            keys.setKeyPassword(access.keystorePassword());
            SSLContextParameters tls = new SSLContextParameters();
            tls.setKeyManagers(keys);
            configuration.setSslContextParameters(tls);
        }
        return new ManagementServer(configuration, access);
    }

    /** {@code https} with a keystore, else {@code http}. */
    public String scheme() {
        return access.tls() ? "https" : "http";
    }

    @Override
    protected void initializeServer() {
        super.initializeServer();
        ManagementGuard guard = new ManagementGuard(access, Clock.systemUTC());
        // On the server's outer router, before the sub-router the platform-http routes live on: a
        // request whose path cannot even be decoded fails there, before any route would see it.
        outerRouter().route().order(Integer.MIN_VALUE).handler(guard.requests()).failureHandler(guard.failures());
    }

    /**
     * Camel keeps the router the HTTP server is given private; reading it is the only way to stand in
     * front of everything it serves. Checked by ManagementPortExposureTest, which fails if it ever moves.
     */
    private Router outerRouter() {
        try {
            Field field = VertxPlatformHttpServer.class.getDeclaredField("router");
            field.setAccessible(true);
            return (Router) field.get(this);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot guard the management port: camel-platform-http-vertx no longer"
                    + " keeps its router where this version of Notifier looks for it (" + e + ")", e);
        }
    }

    @Override
    protected void doStart() throws Exception {
        if (configuredPort != 0) {
            refuseBusyPort();
        }
        super.doStart();
        // the probe above and Vert.x's own bind are two binds: another process may come in between
        if (!(getServer() instanceof TCPServerBase server) || !server.isListening()) {
            throw cannotListen("see the Vert.x warning above for why", null);
        }
    }

    private void refuseBusyPort() {
        try (ServerSocket probe = new ServerSocket()) {
            // as Vert.x binds: SO_REUSEADDR, so a port in TIME_WAIT after a restart is not "busy"
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(configuredHost, configuredPort));
        } catch (IOException e) {
            throw cannotListen(e.getMessage(), e);
        }
    }

    private IllegalStateException cannotListen(String reason, Exception cause) {
        return new IllegalStateException("Cannot listen on management port " + configuredHost + ":" + configuredPort
                + " (notifier.http.port, environment variable NOTIFIER_HTTP_PORT): " + reason
                + ". Stop whatever uses the port, or set NOTIFIER_HTTP_PORT to a free one.", cause);
    }
}
