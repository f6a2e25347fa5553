package dev.notifier.delivery;

import dev.notifier.event.Channel;
import java.util.Locale;
import org.apache.camel.builder.RouteBuilder;

/**
 * One delivery route per channel, {@code deliver-<channel>}, from the {@code deliver-notification}
 * route template (routes/deliver-notification.camel.yaml): each channel its own queue and sender
 * threads, so a slow or hanging provider holds up its own channel only.
 */
public final class ChannelRoutes extends RouteBuilder {

    @Override
    public void configure() {
        for (Channel channel : Channel.values()) {
            String name = channel.name().toLowerCase(Locale.ROOT);
            templatedRoute("deliver-notification").routeId(HandOff.routeId(channel.name()))
                    .parameter("channel", name)
                    .parameter("senders", "{{notifier.delivery.senders}}");
        }
    }
}
