package dev.notifier.inbox;

import dev.notifier.event.Channel;
import dev.notifier.event.TransferEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Decides which channels an event becomes notifications on, one (event, channel) each. The
 * producer's explicit {@code channels} win; without them, every channel the recipient has an address
 * for, minus the channels the recipient opted out of.
 */
public class ChannelPlanner {

    /**
     * @param optedOut the recipient's opted-out channels; only asked for (and only matter) when the
     *                 event leaves the channels to us
     */
    public List<String> channels(TransferEvent event, Collection<String> optedOut) {
        if (event.channels() != null) {
            return event.channels().stream().map(Channel::name).toList();
        }
        List<String> channels = new ArrayList<>();
        if (event.recipient().email() != null && !optedOut.contains(Channel.EMAIL.name())) {
            channels.add(Channel.EMAIL.name());
        }
        if (event.recipient().pushToken() != null && !optedOut.contains(Channel.PUSH.name())) {
            channels.add(Channel.PUSH.name());
        }
        return channels;
    }
}
