package dev.notifier.inbox;

import dev.notifier.event.Channel;
import dev.notifier.event.ChannelCatalog;
import dev.notifier.event.TransferEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Decides which channels an event becomes notifications on, one (event, channel) each. The
 * producer's explicit {@code channels} win; without them, every channel in use that the recipient
 * has an address for (the catalog says which field), minus the channels the recipient opted out of.
 */
public class ChannelPlanner {

    private final ChannelCatalog catalog;

    public ChannelPlanner(ChannelCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * @param optedOut the recipient's opted-out channels; only asked for (and only matter) when the
     *                 event leaves the channels to us
     */
    public List<Channel> channels(TransferEvent event, Collection<Channel> optedOut) {
        if (event.channels() != null) {
            return List.copyOf(event.channels());
        }
        List<Channel> channels = new ArrayList<>();
        for (Channel channel : catalog.channels()) {
            if (catalog.addressOf(event.recipient(), channel) != null && !optedOut.contains(channel)) {
                channels.add(channel);
            }
        }
        return channels;
    }
}
