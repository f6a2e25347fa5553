package dev.notifier.delivery.email;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * How Notifier talks to its SMTP server, beyond host, port and credentials (which camel-mail's
 * endpoint and component hand to {@link SmtpSender}).
 *
 * @param from                  the envelope sender (MAIL FROM), validated like the From header it matches
 * @param tls                   none, STARTTLS required, or TLS from the first byte (SMTPS)
 * @param truststore            a PKCS12 or JKS trust store for the server's certificate, or {@code null}: the JVM's own
 * @param utf8                  SMTPUTF8: non-ASCII addresses accepted, sent only to a server that offers it
 * @param timeout               connect, read and write timeout
 * @param connections           connections kept open at most (one per email sender is enough)
 * @param messagesPerConnection a connection is closed after this many messages (relays limit it)
 * @param maxIdle               a connection idle longer is closed rather than reused (relays drop idle ones)
 * @param connectionWait        how long a sender waits for a free connection when all are in use
 */
public record SmtpSettings(String from, Tls tls, Path truststore, String truststorePassword, boolean utf8,
                           Duration timeout, int connections, int messagesPerConnection, Duration maxIdle,
                           Duration connectionWait) {

    /** For logs and exceptions: without the truststore's password. */
    @Override
    public String toString() {
        return "SmtpSettings[from=" + from + ", tls=" + tls + ", truststore=" + truststore + ", utf8=" + utf8 + ", timeout="
                + timeout + ", connections=" + connections + ", messagesPerConnection=" + messagesPerConnection
                + ", maxIdle=" + maxIdle + ", connectionWait=" + connectionWait + "]";
    }

    /** {@code NOTIFIER_SMTP_TLS}. */
    public enum Tls {
        /** Plain SMTP: for a relay on the same host or network segment only. */
        NONE,
        /** STARTTLS, required: an attempt fails if the server does not offer it. */
        STARTTLS,
        /** TLS from the first byte (port 465). */
        SMTPS;

        public static Tls parse(String text) {
            try {
                return valueOf(text.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException("NOTIFIER_SMTP_TLS (notifier.smtp.tls) must be none, starttls or smtps,"
                        + " not '" + text + "'");
            }
        }
    }

    public SmtpSettings {
        if (connections < 1 || messagesPerConnection < 1) {
            throw new IllegalArgumentException("notifier.smtp.connections and messages-per-connection must be at least 1");
        }
        if (timeout.isNegative() || timeout.isZero() || connectionWait.isNegative()) {
            throw new IllegalArgumentException("notifier.smtp.timeout-millis must be positive and"
                    + " notifier.smtp.connection-wait-millis not negative");
        }
    }

    /**
     * The longest one send may take by these timeouts, every step counted: the wait for a free
     * connection, then on a new connection the connect and each reply (the greeting, EHLO; with
     * STARTTLS the command, the handshake and EHLO again; with a user, AUTH LOGIN's three), and then
     * the message's own four replies (MAIL FROM, RCPT TO, DATA, the final dot). Each read may take up
     * to the timeout.
     *
     * @param authenticates whether the connection logs in (a user is set)
     */
    public Duration worstSend(boolean authenticates) {
        int waits = 1 + 2; // connect, greeting, EHLO
        if (tls == Tls.STARTTLS) {
            waits += 3;
        } else if (tls == Tls.SMTPS) {
            waits += 1;
        }
        if (authenticates) {
            waits += 3;
        }
        waits += 4;
        return connectionWait.plus(timeout.multipliedBy(waits));
    }
}
