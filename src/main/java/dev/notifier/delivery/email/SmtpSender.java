package dev.notifier.delivery.email;

import dev.notifier.delivery.OutcomeUnknownException;
import dev.notifier.delivery.ProviderNotTakenException;
import dev.notifier.delivery.SendDeadline;
import dev.notifier.delivery.UndeliverableException;
import dev.notifier.delivery.provider.Provider;
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
public class SmtpSender extends EndpointSettings implements AutoCloseable {

    private final SmtpSettings settings;
    private final Provider provider;
    private SmtpConnectionPool pool;
    private Session session;

    public SmtpSender(SmtpSettings settings) {
        this(settings, new Provider("email-primary", 5, java.time.Duration.ofSeconds(30), java.time.Duration.ofMinutes(5)));
    }

    public SmtpSender(SmtpSettings settings, Provider provider) {
        super(null, null, false);
        this.settings = settings;
        this.provider = provider;
    }

    /** A relay with credentials of its own (a fallback): Camel's component-wide user and password do not apply. */
    public SmtpSender(SmtpSettings settings, Provider provider, String username, String password) {
        super(username, password, true);
        this.settings = settings;
        this.provider = provider;
    }

    public SmtpSettings settings() {
        return settings;
    }

    /** The longest one send may take, every step counted ({@link SmtpSettings#worstSend}), once Camel has set the user. */
    public java.time.Duration worstSend() {
        return settings.worstSend(blankToNull(username) != null);
    }

    /**
     * Sends to the message's one recipient, and tells the relay's {@link Provider} how it went. A failure
     * before the final dot was written, or with the relay's own 4xx to it, surely left nothing at the
     * relay: {@link ProviderNotTakenException}, the next relay may be asked. A failure after the dot with
     * no answer is {@link OutcomeUnknownException}: only this relay, later. A 5xx is about the recipient.
     */
    @Override
    public void send(MimeMessage message) throws MessagingException {
        InternetAddress recipient = envelopeRecipient(message);
        boolean needsUtf8 = !recipient.getAddress().chars().allMatch(c -> c < 128);
        SmtpConnectionPool connections = pool();
        SmtpConnectionPool.Connection connection = null;
        boolean reusable = false;
        try {
            connection = connections.borrow();
            if (needsUtf8 && !connection.transport.supportsExtension("SMTPUTF8")) {
                reusable = true;
                throw new UndeliverableException("the SMTP server does not offer SMTPUTF8, and a non-ASCII address"
                        + " can be delivered exactly as written only with it");
            }
            connection.transport.sendMessage(message, new Address[] {recipient});
            connection.sent++;
            reusable = true;
            provider.answered();
        } catch (SmtpConnectionPool.NoConnectionFree | UndeliverableException ours) {
            provider.released();
            throw ours;
        } catch (MessagingException | RuntimeException failure) {
            throw judged(failure, connection);
        } finally {
            if (connection != null) {
                connections.giveBack(connection, reusable);
            }
        }
    }

    private RuntimeException judged(Exception failure, SmtpConnectionPool.Connection connection) throws MessagingException {
        if (failure instanceof MessagingException stopped && causedBy(stopped, SendDeadline.TooLateToSend.class)) {
            // our deadline, not the relay: it stopped before the dot, and says so
            provider.released();
            throw stopped;
        }
        if (failure instanceof MessagingException smtp && SmtpReplies.isPermanent(smtp)) {
            provider.answered();
            throw smtp;
        }
        provider.failed(failure);
        boolean dotSent = connection != null && connection.transport instanceof DeadlineSmtpTransport t && t.dotSent();
        boolean replied = failure instanceof MessagingException smtp && SmtpReplies.repliedWithCode(smtp);
        if (dotSent && !replied) {
            return new OutcomeUnknownException(provider.name(), failure);
        }
        String reason = failure instanceof MessagingException smtp ? SmtpReplies.describe(smtp) : failure.toString();
        java.time.Instant until = null;
        if (replied && SmtpReplies.asksToSlowDown((MessagingException) failure)) {
            until = provider.pause(settings.timeout());
        }
        return new ProviderNotTakenException(provider.name(), "SMTP: " + reason, failure, until);
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
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
