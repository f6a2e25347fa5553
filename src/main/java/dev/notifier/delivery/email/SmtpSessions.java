package dev.notifier.delivery.email;

import dev.notifier.delivery.SendTimer;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.KeyStore;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/** The Jakarta Mail session properties for a TLS mode: what "STARTTLS required" and "SMTPS" mean to the library. */
final class SmtpSessions {

    private SmtpSessions() {
    }

    static Properties properties(SmtpSettings settings, String protocol) {
        Properties p = new Properties();
        String prefix = "mail." + protocol + ".";
        String timeout = String.valueOf(settings.timeout().toMillis());
        p.setProperty(prefix + "connectiontimeout", timeout);
        p.setProperty(prefix + "timeout", timeout);
        p.setProperty(prefix + "writetimeout", timeout);
        // one timer for every connection's write timeout, which a write never has to wake
        p.put(prefix + "executor.writetimeout", SendTimer.SHARED);
        // every connection's plain socket from here, so a send's deadline can cut it off
        p.put(prefix + "socketFactory", SmtpSockets.PLAIN);
        // QUIT without waiting for the answer: closing a connection must not take a reply's time off a send
        p.setProperty(prefix + "quitwait", "false");
        // MAIL FROM as configured, not parsed back out of each message's From header
        p.setProperty(prefix + "from", settings.from());
        // RCPT TO and MAIL FROM in UTF-8, with the SMTPUTF8 parameter when the server offers it;
        // off, no non-ASCII address gets this far (SmtpSender and the parser refuse them)
        p.setProperty("mail.mime.allowutf8", String.valueOf(settings.utf8()));
        switch (settings.tls()) {
            case STARTTLS -> {
                p.setProperty(prefix + "starttls.enable", "true");
                p.setProperty(prefix + "starttls.required", "true");
                tlsChecks(p, prefix, settings);
            }
            case SMTPS -> {
                p.setProperty(prefix + "ssl.enable", "true");
                tlsChecks(p, prefix, settings);
            }
            case NONE -> p.setProperty(prefix + "starttls.enable", "false");
        }
        return p;
    }

    /** The server's certificate is checked against the trust store and its name against the host. */
    private static void tlsChecks(Properties p, String prefix, SmtpSettings settings) {
        p.setProperty(prefix + "ssl.checkserveridentity", "true");
        p.setProperty(prefix + "ssl.protocols", "TLSv1.3 TLSv1.2");
        // the default falls back to the JVM's socket factory on failure, which hides why
        p.setProperty(prefix + "socketFactory.fallback", "false");
        // TLS layered over the plain socket, which the layer sees and attaches to the send
        p.put(prefix + "ssl.socketFactory", SmtpSockets.layered(settings.truststore() != null ? socketFactory(settings)
                : (SSLSocketFactory) SSLSocketFactory.getDefault()));
    }

    private static SSLSocketFactory socketFactory(SmtpSettings settings) {
        try (InputStream in = Files.newInputStream(settings.truststore())) {
            // "PKCS12" also reads JKS files on Java 9 and later
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            char[] password = settings.truststorePassword() == null ? null : settings.truststorePassword().toCharArray();
            trusted.load(in, password);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context.getSocketFactory();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the SMTP trust store " + settings.truststore()
                    + " (NOTIFIER_SMTP_TRUSTSTORE): " + e.getMessage(), e);
        }
    }
}
