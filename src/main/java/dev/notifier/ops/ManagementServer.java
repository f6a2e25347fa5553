package dev.notifier.ops;

import io.vertx.core.net.impl.TCPServerBase;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpServer;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpServerConfiguration;

/**
 * The management port: Camel's own Vert.x HTTP server, which serves the {@code platform-http:}
 * routes routes/status-*, health-* and metrics (camel-platform-http-main, which would normally add it, is
 * not available at this Camel version).
 *
 * <p>Vert.x reports a failed bind only in a log line and Camel would start anyway, without a status
 * page, health or metrics; a service that cannot be watched must not pass for healthy, so a busy
 * port fails start-up here, naming the port and the variable that sets it.
 */
public final class ManagementServer extends VertxPlatformHttpServer {

    private final String configuredHost;
    private final int configuredPort;

    private ManagementServer(VertxPlatformHttpServerConfiguration configuration) {
        super(configuration);
        this.configuredHost = configuration.getBindHost();
        this.configuredPort = configuration.getBindPort();
    }

    /** @param port 0 picks a free port (tests); {@link #getPort()} tells which */
    public static ManagementServer onPort(int port) {
        return create("127.0.0.1", port, null);
    }

    /**
     * @param host     the bind address ({@code NOTIFIER_HTTP_HOST}); beyond loopback only with a password
     * @param password the operator's password for the page and its API ({@code NOTIFIER_HTTP_PASSWORD}), or null
     */
    public static ManagementServer create(String host, int port, String password) {
        ManagementAccess.requireSafeBinding(host, password);
        VertxPlatformHttpServerConfiguration configuration = new VertxPlatformHttpServerConfiguration();
        configuration.setBindHost(host);
        configuration.setBindPort(port);
        configuration.setAuthenticationConfig(ManagementAccess.config(password));
        return new ManagementServer(configuration);
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
