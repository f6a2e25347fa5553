package dev.notifier.delivery;

import dev.notifier.delivery.email.SmtpSender;
import dev.notifier.event.Channel;
import dev.notifier.event.ChannelCatalog;
import org.apache.camel.CamelContext;
import org.apache.camel.StartupListener;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.Model;

/**
 * One delivery route per channel in use ({@code notifier.channels}), {@code deliver-<channel>}, from the
 * {@code deliver-notification} route template (routes/deliver-notification.camel.yaml): each channel its
 * own queue and sender threads, so a slow or hanging provider holds up its own channel only. Each sends
 * through {@code direct:send-<channel>}, the channel's route file: a channel in use without that route
 * stops the start, naming the file it lacks, instead of failing every notification of the channel.
 */
public final class ChannelRoutes extends RouteBuilder {

    @Override
    public void configure() throws Exception {
        ChannelCatalog catalog = getContext().getRegistry().lookupByNameAndType("channelCatalog", ChannelCatalog.class);
        ChannelSenders senders = getContext().getRegistry().lookupByNameAndType("channelSenders", ChannelSenders.class);
        for (Channel channel : catalog.channels()) {
            // the channel's queue, with the bulkhead's rule: the route names it in its seda queueFactory option
            getContext().getRegistry().bind("deliveryQueue-" + channel.id(), senders.queueFor(channel));
            templatedRoute("deliver-notification").routeId(ChannelSenders.routeId(channel))
                    .parameter("channel", channel.id())
                    .parameter("senders", "{{notifier.delivery.senders}}");
        }
        getContext().addStartupListener(new StartupListener() {
            @Override
            public void onCamelContextStarting(CamelContext context, boolean alreadyStarted) {
                Model model = context.getCamelContextExtension().getContextPlugin(Model.class);
                for (Channel channel : catalog.channels()) {
                    if (model.getRouteDefinition("send-" + channel.id()) == null) {
                        throw new IllegalStateException("channel " + channel + " is in notifier.channels but no route has id send-"
                                + channel.id() + " (routes/send-" + channel.id() + ".camel.yaml, from direct:send-" + channel.id() + ")");
                    }
                }
            }

            @Override
            public void onCamelContextStarted(CamelContext context, boolean alreadyStarted) {
                // the routes run, with their endpoints: how long may a send take, and does it fit in its
                // claim? (no smtpSender: a deployment without email)
                DeliverySchedule schedule = context.getRegistry().lookupByNameAndType("deliverySchedule", DeliverySchedule.class);
                SmtpSender smtp = context.getRegistry().lookupByNameAndType("smtpSender", SmtpSender.class);
                SendWithinLease.check(context, schedule, smtp);
            }
        });
    }
}
