package dev.notifier.config;

import dev.notifier.bounce.BounceInbox;
import dev.notifier.bounce.BounceLedger;
import dev.notifier.bounce.BounceMail;
import dev.notifier.bounce.BounceMailPrefetch;
import dev.notifier.bounce.BouncePolls;
import dev.notifier.bounce.Suppressions;
import dev.notifier.event.EventParser;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.camel.CamelContext;
import org.apache.camel.component.mail.MailComponent;
import org.apache.camel.spi.PropertiesComponent;
import org.apache.camel.spi.Registry;

/**
 * The bounce mailbox's beans (routes/read-bounces.camel.yaml) and the suppression every email send
 * consults. {@code NOTIFIER_BOUNCE_IMAP_URL} ({@code imaps://host:993/INBOX}, or {@code imap://} on
 * loopback) turns reading on; unset, read-bounces is left out and no address is ever suppressed.
 * The mailbox's credentials are set on the imap/imaps component, never in the endpoint URI.
 */
final class BounceBeans {

    /** The route left out while no bounce mailbox is configured. */
    static final String ROUTES = "read-bounces|record-bounce";

    private final CamelContext context;
    private final ServiceProperties p;
    private final Database database;
    private final EventParser parser;

    BounceBeans(CamelContext context, ServiceProperties p, Database database, EventParser parser) {
        this.context = context;
        this.p = p;
        this.database = database;
        this.parser = parser;
    }

    /** @return whether the bounce mailbox is read (else its routes are to be left out) */
    boolean bind() {
        Optional<Mailbox> mailbox = p.find("notifier.bounce.imap-url").map(BounceBeans::mailbox);
        Duration window = Duration.ofDays(p.getLong("notifier.bounces.suppress-days", 30));
        Registry registry = context.getRegistry();
        Suppressions suppressions = new Suppressions(database.dataSource, window, mailbox.isPresent());
        registry.bind("suppressions", suppressions);
        if (mailbox.isEmpty()) {
            return false;
        }
        if (mailbox.get().protocol().equals("imap") && p.find("notifier.bounce.password").isPresent()
                && !CleartextCredentials.isLoopback(mailbox.get().host())) {
            CleartextCredentials.refuseOrWarn(List.of("IMAP would send NOTIFIER_BOUNCE_PASSWORD in clear to "
                    + mailbox.get().host() + " (NOTIFIER_BOUNCE_IMAP_URL), which is not this machine (use imaps://)"),
                    p.getBoolean(CleartextCredentials.ALLOW, false));
        }
        registry.bind("bounceInbox", new BounceInbox(database.dataSource, database.transactions));
        registry.bind("bounceLedger", new BounceLedger(database.dataSource, parser, suppressions));
        registry.bind("bounceMail", new BounceMail());
        registry.bind("bouncePolls", new BouncePolls());
        registry.bind("bounceMailPrefetch", new BounceMailPrefetch(p.getInt("notifier.bounces.max-per-poll", 100)));
        PropertiesComponent properties = context.getPropertiesComponent();
        properties.addOverrideProperty("notifier.bounce.protocol", mailbox.get().protocol());
        properties.addOverrideProperty("notifier.bounce.host", mailbox.get().host());
        properties.addOverrideProperty("notifier.bounce.port", String.valueOf(mailbox.get().port()));
        properties.addOverrideProperty("notifier.bounce.folder", mailbox.get().folder());
        MailComponent component = context.getComponent(mailbox.get().protocol(), MailComponent.class);
        p.find("notifier.bounce.user").ifPresent(component.getConfiguration()::setUsername);
        p.find("notifier.bounce.password").ifPresent(component.getConfiguration()::setPassword);
        return true;
    }

    /** Where the bounce mailbox is: imap or imaps, host, port (143 / 993 unless given), folder (INBOX unless given). */
    record Mailbox(String protocol, String host, int port, String folder) {
    }

    static Mailbox mailbox(String url) {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            // not the parser's message: it quotes the text, which may hold a password
            throw new IllegalStateException("NOTIFIER_BOUNCE_IMAP_URL is no URL (expected imaps://host[:port][/folder])");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("imap") && !scheme.equals("imaps") || uri.getHost() == null) {
            throw new IllegalStateException("NOTIFIER_BOUNCE_IMAP_URL must be imaps://host[:port][/folder] (or imap:// on"
                    + " loopback), not '" + scheme + "://...'");
        }
        if (uri.getUserInfo() != null || uri.getQuery() != null) {
            throw new IllegalStateException("NOTIFIER_BOUNCE_IMAP_URL takes no user, password or options: set"
                    + " NOTIFIER_BOUNCE_USER and NOTIFIER_BOUNCE_PASSWORD");
        }
        String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
        int port = uri.getPort() > 0 ? uri.getPort() : scheme.equals("imaps") ? 993 : 143;
        return new Mailbox(scheme, uri.getHost(), port, path.isEmpty() ? "INBOX" : path);
    }
}
