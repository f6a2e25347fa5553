package dev.notifier.delivery.email;

import dev.notifier.delivery.SendDeadline;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.eclipse.angus.mail.smtp.SMTPTransport;

/**
 * Open SMTP connections, reused across messages: at most {@link SmtpSettings#connections()} at once,
 * each for at most {@link SmtpSettings#messagesPerConnection()} messages, none reused after a failure
 * or after idling longer than {@link SmtpSettings#maxIdle()} (the next message then connects anew).
 * A sender waits for a free connection at most {@link SmtpSettings#connectionWait()}, and never past
 * its send's deadline; each connection's socket is attached to the send that uses it, so the
 * deadline can cut it off ({@link SendDeadline}).
 */
final class SmtpConnectionPool implements AutoCloseable {

    /** Where to connect: the session (TLS mode, timeouts), host, port and credentials. */
    interface Server {
        Connection connect() throws MessagingException;
    }

    private final SmtpSettings settings;
    private final Server server;
    private final Semaphore permits;
    private final Deque<Connection> idle = new ArrayDeque<>();

    SmtpConnectionPool(SmtpSettings settings, Server server) {
        this.settings = settings;
        this.server = server;
        this.permits = new Semaphore(settings.connections(), true);
    }

    /**
     * A connection for one message; it must be given back. Waits while all of them are in use, at most
     * {@link SmtpSettings#connectionWait()} and never past the send's deadline.
     */
    Connection borrow() throws MessagingException {
        Duration wait = settings.connectionWait();
        Duration left = SendDeadline.current().map(SendDeadline::remaining).orElse(wait);
        try {
            if (!permits.tryAcquire(Math.max(0, Math.min(wait.toNanos(), left.toNanos())), TimeUnit.NANOSECONDS)) {
                throw new NoConnectionFree("no SMTP connection came free within " + Math.max(0, Math.min(wait.toMillis(),
                        left.toMillis())) + " ms (notifier.smtp.connections " + settings.connections()
                        + ", notifier.smtp.connection-wait-millis " + wait.toMillis() + "); not sent");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MessagingException("interrupted while waiting for an SMTP connection");
        }
        try {
            long now = System.nanoTime();
            while (true) {
                Connection pooled;
                synchronized (idle) {
                    pooled = idle.pollFirst();
                }
                if (pooled == null) {
                    return server.connect();
                }
                if (now - pooled.lastUsed <= settings.maxIdle().toNanos()) {
                    SendDeadline.attach(pooled.socket);
                    return pooled;
                }
                pooled.close();
            }
        } catch (MessagingException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /** @param reusable false after anything went wrong on it: it is closed, never handed out again */
    void giveBack(Connection connection, boolean reusable) {
        try {
            if (reusable && connection.sent < settings.messagesPerConnection()) {
                connection.lastUsed = System.nanoTime();
                synchronized (idle) {
                    idle.addFirst(connection);
                }
            } else {
                connection.close();
            }
        } finally {
            permits.release();
        }
    }

    /** Closes the idle connections; one in use is closed when it is given back. */
    @Override
    public void close() {
        synchronized (idle) {
            idle.forEach(Connection::close);
            idle.clear();
        }
    }

    static final class Connection {
        final SMTPTransport transport;
        /** The plain socket beneath it (TLS included): what a send's deadline closes. */
        final Socket socket;
        int sent;
        long lastUsed = System.nanoTime();

        Connection(SMTPTransport transport, Socket socket) {
            this.transport = transport;
            this.socket = socket;
        }

        void close() {
            try {
                transport.close();
            } catch (MessagingException e) {
                // the server went away first: nothing to close politely
            }
        }
    }

    /**
     * Opens connections through a session built from the settings ({@link SmtpSessions}), whose sockets
     * come from {@link SmtpSockets}: each is attached to the send that opens it.
     */
    static Server server(Session session, String protocol, String host, int port, String user, String password,
                         Duration replyTimeout) {
        return () -> {
            SMTPTransport transport = new DeadlineSmtpTransport(session, protocol, replyTimeout);
            Socket socket = SmtpSockets.madeBy(() -> transport.connect(host, port, user, password));
            return new Connection(transport, socket);
        };
    }

    /** All connections stayed in use for as long as a sender could wait: nothing was sent. */
    static final class NoConnectionFree extends MessagingException {
        NoConnectionFree(String message) {
            super(message);
        }
    }
}
