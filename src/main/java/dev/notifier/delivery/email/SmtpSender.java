package dev.notifier.delivery.email;

import dev.notifier.delivery.UndeliverableException;
import dev.notifier.event.EmailAddresses;
import dev.notifier.event.InvalidEventException;
import jakarta.mail.Address;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.util.Properties;
import org.apache.camel.component.mail.JavaMailSender;
import org.apache.camel.component.mail.MailAuthenticator;

/**
 * camel-mail's sender for the {@code smtp:} endpoint ({@code javaMailSender=#smtpSender}), which
 * keeps connections open across messages. camel-mail's own connects, says EHLO and QUITs for every
 * message; a relay counts connections and throttles a sender that opens one per message. Here at
 * most {@link SmtpSettings#connections()} are open, each for at most {@link SmtpSettings#messagesPerConnection()}
 * messages, dropped after any failure or when idle too long: the next message gets a fresh one.
 *
 * <p>It is also the last check on the envelope: the only recipient is the message's one To address,
 * valid by {@link EmailAddresses}, exactly as written; a non-ASCII one goes only to a server that
 * announced SMTPUTF8 (Jakarta Mail would otherwise write each character's low byte, which is another
 * mailbox). Camel sets host, port and credentials; the session is built here, with the TLS mode.
 */
public class SmtpSender implements JavaMailSender, AutoCloseable {

    private final SmtpSettings settings;
    private Properties javaMailProperties = new Properties();
    private String host;
    private int port = -1;
    private String username;
    private String password;
    private SmtpConnectionPool pool;
    private Session session;

    public SmtpSender(SmtpSettings settings) {
        this.settings = settings;
    }

    public SmtpSettings settings() {
        return settings;
    }

    /** The longest one send may take, every step counted ({@link SmtpSettings#worstSend}), once Camel has set the user. */
    public java.time.Duration worstSend() {
        return settings.worstSend(blankToNull(username) != null);
    }

    @Override
    public void send(MimeMessage message) throws MessagingException {
        InternetAddress recipient = envelopeRecipient(message);
        boolean needsUtf8 = !recipient.getAddress().chars().allMatch(c -> c < 128);
        SmtpConnectionPool connections = pool();
        SmtpConnectionPool.Connection connection = connections.borrow();
        boolean reusable = false;
        try {
            if (needsUtf8 && !connection.transport.supportsExtension("SMTPUTF8")) {
                reusable = true;
                throw new UndeliverableException("the SMTP server does not offer SMTPUTF8, and a non-ASCII address"
                        + " can be delivered exactly as written only with it");
            }
            connection.transport.sendMessage(message, new Address[] {recipient});
            connection.sent++;
            reusable = true;
        } finally {
            connections.giveBack(connection, reusable);
        }
    }

    /**
     * The one recipient EmailComposer put on the message, as it composed it, valid by the same rule
     * the parser applied. A message from anywhere else is not sent: its recipients would come from
     * parsing its headers.
     */
    private InternetAddress envelopeRecipient(MimeMessage message) {
        if (!(message instanceof StableIdMimeMessage composed)) {
            throw new UndeliverableException("only an email composed by EmailComposer is sent, not a "
                    + message.getClass().getName());
        }
        InternetAddress address = composed.envelopeRecipient();
        try {
            EmailAddresses.requireDeliverable(address.getAddress(), settings.utf8());
        } catch (InvalidEventException e) {
            throw new UndeliverableException(e.getMessage(), e);
        }
        return address;
    }

    private synchronized SmtpConnectionPool pool() {
        if (pool == null) {
            pool = new SmtpConnectionPool(settings, SmtpConnectionPool.server(getSession(), getProtocol(), host, port,
                    blankToNull(username), blankToNull(password), settings.timeout()));
        }
        return pool;
    }

    /** Closes the idle connections; one in use is closed when it is given back. */
    @Override
    public synchronized void close() {
        if (pool != null) {
            pool.close();
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    // camel-mail hands the endpoint's settings over through these; the session is built from SmtpSettings

    @Override
    public Properties getJavaMailProperties() {
        return javaMailProperties;
    }

    @Override
    public void setJavaMailProperties(Properties javaMailProperties) {
        this.javaMailProperties = javaMailProperties;
    }

    @Override
    public void addAdditionalJavaMailProperty(String key, String value) {
        javaMailProperties.setProperty(key, value);
    }

    @Override
    public void setHost(String host) {
        this.host = host;
    }

    @Override
    public String getHost() {
        return host;
    }

    @Override
    public void setPort(int port) {
        this.port = port;
    }

    @Override
    public int getPort() {
        return port;
    }

    @Override
    public void setUsername(String username) {
        this.username = username;
    }

    @Override
    public String getUsername() {
        return username;
    }

    @Override
    public void setPassword(String password) {
        this.password = password;
    }

    @Override
    public String getPassword() {
        return password;
    }

    @Override
    public void setProtocol(String protocol) {
        // the TLS mode decides: smtps for TLS from the first byte, smtp otherwise
    }

    @Override
    public String getProtocol() {
        return settings.tls() == SmtpSettings.Tls.SMTPS ? "smtps" : "smtp";
    }

    @Override
    public void setSession(Session session) {
        // built here, from SmtpSettings: camel-mail's would lack the TLS mode and the trust store
    }

    @Override
    public synchronized Session getSession() {
        if (session == null) {
            session = Session.getInstance(SmtpSessions.properties(settings, getProtocol()));
        }
        return session;
    }

    @Override
    public void setAuthenticator(MailAuthenticator authenticator) {
        // credentials are passed to connect()
    }

    @Override
    public MailAuthenticator getAuthenticator() {
        return null;
    }
}
