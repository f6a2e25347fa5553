package dev.notifier.delivery.email;

import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Semaphore;
import org.eclipse.angus.mail.smtp.SMTPTransport;

/**
 * Open SMTP connections, reused across messages: at most {@link SmtpSettings#connections()} at once,
 * each for at most {@link SmtpSettings#messagesPerConnection()} messages, none reused after a failure
 * or after idling longer than {@link SmtpSettings#maxIdle()} (the next message then connects anew).
 */
final class SmtpConnectionPool implements AutoCloseable {

    /** Where to connect: the session (TLS mode, timeouts), host, port and credentials. */
    interface Server {
        SMTPTransport connect() throws MessagingException;
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

    /** A connection for one message; it must be given back. Waits while all of them are in use. */
    Connection borrow() throws MessagingException {
        try {
            permits.acquire();
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
                    return new Connection(server.connect());
                }
                if (now - pooled.lastUsed <= settings.maxIdle().toNanos()) {
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
        int sent;
        long lastUsed = System.nanoTime();

        Connection(SMTPTransport transport) {
            this.transport = transport;
        }

        void close() {
            try {
                transport.close();
            } catch (MessagingException e) {
                // the server went away first: nothing to close politely
            }
        }
    }

    /** Opens connections through a session built from the settings. */
    static Server server(Session session, String protocol, String host, int port, String user, String password) {
        return () -> {
            SMTPTransport transport = (SMTPTransport) session.getTransport(protocol);
            transport.connect(host, port, user, password);
            return transport;
        };
    }
}
