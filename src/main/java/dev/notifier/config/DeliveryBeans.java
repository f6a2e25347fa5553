package dev.notifier.config;

import dev.notifier.delivery.Attempts;
import dev.notifier.delivery.ChannelQueues;
import dev.notifier.delivery.ChannelSenders;
import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.delivery.DeliveryFailures;
import dev.notifier.delivery.DeliveryLedger;
import dev.notifier.delivery.DeliveryObserver;
import dev.notifier.delivery.DeliverySchedule;
import dev.notifier.delivery.RetryPoller;
import dev.notifier.delivery.email.EmailComposer;
import dev.notifier.delivery.email.SmtpSender;
import dev.notifier.delivery.email.SmtpSettings;
import dev.notifier.delivery.http.HttpChannel;
import dev.notifier.delivery.http.HttpChannels;
import dev.notifier.delivery.http.HttpConnections;
import dev.notifier.delivery.template.MessageModel;
import dev.notifier.delivery.template.SampleEvents;
import dev.notifier.delivery.template.Templates;
import dev.notifier.event.Channel;
import dev.notifier.event.EventParser;
import dev.notifier.event.InvalidEventException;
import dev.notifier.inbox.NotificationRows;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.Processor;
import org.apache.camel.component.http.HttpComponent;
import org.apache.camel.component.mail.MailComponent;
import org.apache.camel.spi.Registry;

/**
 * Delivery's beans: the ledger and what writes claims and outcomes through it, the hand-off to the
 * channels' senders, and each channel's composer and provider settings. The routes name them.
 */
final class DeliveryBeans {

    private final CamelContext context;
    private final ServiceProperties p;
    private final Database database;
    private final EventParser parser;
    private final DeliverySchedule schedule;
    private final Shutdown shutdown;
    private final Registry registry;
    private NotificationRows rows;
    private final dev.notifier.trace.Tracing tracing;

    DeliveryBeans(CamelContext context, ServiceProperties p, Database database, EventParser parser,
                  DeliverySchedule schedule, Shutdown shutdown, dev.notifier.trace.Tracing tracing) {
        this.tracing = tracing;
        this.context = context;
        this.p = p;
        this.database = database;
        this.parser = parser;
        this.schedule = schedule;
        this.shutdown = shutdown;
        this.registry = context.getRegistry();
    }

    /** @param leftOut routes of other parts not in use (the bounce mailbox's), as a pattern; null for none */
    void bind(String leftOut) {
        DeliveryLedger ledger = shutdown.closeFirst(new DeliveryLedger(database.dataSource, database.transactions,
                p.getInt("notifier.delivery.ledger-batch-size", 200), schedule, parser));
        registry.bind("deliveryLedger", ledger);
        rows = new NotificationRows(database.dataSource, parser, new dev.notifier.inbox.ChannelPlanner(parser.channels()), schedule);
        registry.bind("notificationRows", rows);
        registry.bind("recordNotifications", (Processor) rows::record);
        // the channels' queues (routes/hand-off to each deliver-<channel>): camel-seda, with a refused exchange failed
        context.addComponent("seda", new ChannelQueues());
        ChannelSenders senders = new ChannelSenders(context, ledger,
                Duration.ofMillis(p.getLong("notifier.delivery.hand-off-wait-millis", 5000)), parser.channels().channels());
        registry.bind("channelSenders", senders);
        int batchSize = p.getInt("notifier.delivery.batch-size", 50);
        // the retry poller's next batch, for the channels whose senders run; a stopping context claims no more
        registry.bind("retryPoller", new RetryPoller(() -> {
            java.time.Instant start = java.time.Instant.now();
            DeliveryLedger.DueBatch due = ledger.claimDue(batchSize, senders.openChannels());
            tracing.claimed(start, due.claimed().size());
            return new DeliveryLedger.DueBatch(due.found(), due.claimed(), due.more() && !context.isStopping());
        }));
        registry.bind("attempts", new Attempts(ledger, schedule, new DeliveryFailures(), new MetricsObserver(registry),
                tracing));
        Templates templates = templates();
        ProviderBeans providers = new ProviderBeans(context, p);
        providers.bind(parser.channels());
        bindEmail(templates, providers);
        bindHttpChannels(templates, providers);
        leaveOutRoutesNotInUse(providers.unconfigured(), leftOut);
    }

    /**
     * A channel not in use leaves out its routes (routes/send-&lt;channel&gt;.camel.yaml: send-&lt;channel&gt;
     * and its providers' &lt;channel&gt;-primary, -fallback), as it leaves out its beans and templates: the
     * routes would name what only that channel has (composeEmail, the SMTP sender, its URL). A bank
     * without email runs with NOTIFIER_CHANNELS=PUSH,LINE. So does a fallback that is not configured.
     */
    private void leaveOutRoutesNotInUse(List<String> unconfigured, String leftOut) {
        String inUse = parser.channels().channels().stream().map(Channel::id).collect(java.util.stream.Collectors.joining("|"));
        StringBuilder exclude = new StringBuilder("send-(?!(" + inUse + ")$).*|(?!(" + inUse + ")-)[a-z0-9]+-(primary|fallback)");
        unconfigured.forEach(route -> exclude.append('|').append(route));
        if (leftOut != null) {
            exclude.append('|').append(leftOut);
        }
        context.getCamelContextExtension().getContextPlugin(org.apache.camel.model.Model.class)
                .setRouteFilterPattern(null, exclude.toString());
    }

    NotificationRows rows() {
        return rows;
    }

    /** The templates, each used one tried at start with sample events: a broken one stops the start here. */
    private Templates templates() {
        Templates templates;
        try {
            templates = Templates.load(List.of(p.get("notifier.templates.location").split(",")),
                    new MessageModel(ZoneId.of(p.get("notifier.text.timezone", "Asia/Bangkok"))));
        } catch (IOException e) {
            throw new IllegalStateException("notifier.templates.location: " + e.getMessage(), e);
        }
        for (Channel channel : parser.channels().channels()) {
            templates.check(channel, channel.equals(Channel.EMAIL) ? EmailComposer.TEMPLATES : List.of(HttpChannel.REQUEST),
                    SampleEvents.all());
        }
        return templates;
    }

    private void bindEmail(Templates templates, ProviderBeans providers) {
        if (!parser.channels().contains(Channel.EMAIL)) {
            return;
        }
        boolean utf8 = p.getBoolean("notifier.smtp.utf8", false);
        EmailComposer composer;
        try {
            composer = new EmailComposer(p.get("notifier.mail.from"), templates, utf8);
        } catch (InvalidEventException e) {
            throw new IllegalStateException("NOTIFIER_MAIL_FROM (notifier.mail.from): " + e.getMessage(), e);
        }
        registry.bind("composeEmail", (Processor) exchange -> exchange.getMessage()
                .setBody(composer.compose(exchange.getMessage().getBody(ClaimedNotification.class))));
        // the envelope sender (MAIL FROM, the Return-Path): where bounces go; From: stays NOTIFIER_MAIL_FROM
        SmtpSettings settings = new SmtpSettings(p.find("notifier.bounce.address").orElse(p.get("notifier.mail.from")),
                SmtpSettings.Tls.parse(p.get("notifier.smtp.tls", "none")),
                p.find("notifier.smtp.truststore").map(Path::of).orElse(null),
                p.find("notifier.smtp.truststore-password").orElse(null), utf8,
                Duration.ofMillis(p.getLong("notifier.smtp.timeout-millis", 10_000)),
                p.getInt("notifier.smtp.connections", 16), p.getInt("notifier.smtp.messages-per-connection", 100),
                Duration.ofMillis(p.getLong("notifier.smtp.idle-millis", 10_000)),
                Duration.ofMillis(p.getLong("notifier.smtp.connection-wait-millis", 5_000)));
        registry.bind("smtpSender", shutdown.closeFirst(new SmtpSender(settings,
                registry.lookupByNameAndType("providers", dev.notifier.delivery.provider.Providers.class).get("email-primary"))));
        if (providers.hasEmailFallback()) {
            registry.bind("smtpFallbackSender", shutdown.closeFirst(providers.emailFallback(settings)));
        }
        // credentials live on the component, not in an endpoint URI that could be logged; without a
        // user camel-mail must not attempt AUTH at all
        p.find("notifier.smtp.user").ifPresent(user -> {
            MailComponent smtp = context.getComponent("smtp", MailComponent.class);
            smtp.getConfiguration().setUsername(user);
            smtp.getConfiguration().setPassword(p.find("notifier.smtp.password").orElse(null));
        });
    }

    /** Every channel but EMAIL speaks HTTP: its request and its answer's rules (send-push, send-line, the next one). */
    private void bindHttpChannels(Templates templates, ProviderBeans providers) {
        Map<Channel, HttpChannel> channels = new LinkedHashMap<>();
        for (Channel channel : parser.channels().channels()) {
            if (!channel.equals(Channel.EMAIL)) {
                channels.put(channel, HttpChannel.from(channel, p::find));
            }
        }
        // one pool of connections for every HTTP provider, under both of camel-http's schemes: it binds each
        // connection to the send that uses it, so the send's deadline can cut it off
        var connections = HttpConnections.pool(p.getInt("notifier.http-client.connections-per-provider", 16),
                p.getInt("notifier.http-client.max-connections", 200));
        for (String scheme : List.of("http", "https")) {
            context.getComponent(scheme, HttpComponent.class).setClientConnectionManager(connections);
        }
        registry.bind("httpChannels", new HttpChannels(channels, parser.channels(), templates,
                registry.lookupByNameAndType("providers", dev.notifier.delivery.provider.Providers.class), providers.tokens()));
    }
}
