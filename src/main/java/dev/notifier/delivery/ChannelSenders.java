package dev.notifier.delivery;

import dev.notifier.event.Channel;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeProperty;
import org.apache.camel.ServiceStatus;
import org.apache.camel.component.seda.BlockingQueueFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each channel's senders as the hand-off sees them (routes/hand-off: a claimed notification goes to
 * {@code seda:deliver-<channel>}, the queue of route {@code deliver-<channel>}, whose own threads send
 * it): a bulkhead, so a slow or hanging provider holds up its own channel only.
 *
 * <p>The hand-off waits for room in a full queue, up to {@code wait}: intake slows to the senders'
 * pace and the backlog stays in Kafka. A queue that stayed full that long is congested (its provider
 * hangs, or is slower than everything else): until it has drained to half, nobody waits for it again
 * ({@link #queueFor}), so it cannot hold up intake, and with it every other channel. A notification no
 * queue takes, or whose channel's senders are stopped, is given back ({@link #giveBack}) to the retry
 * poller: later, never lost; and the poller claims only for channels whose senders run. While the
 * service stops, no full queue is waited for: what does not fit is given back at once.
 */
public final class ChannelSenders {

    private static final Logger LOG = LoggerFactory.getLogger("dev.notifier.delivery");

    private final CamelContext context;
    private final DeliveryLedger ledger;
    private final Duration wait;
    private final List<Channel> channels;

    /** @param channels every channel that has a {@code deliver-<channel>} route */
    public ChannelSenders(CamelContext context, DeliveryLedger ledger, Duration wait, List<Channel> channels) {
        this.context = context;
        this.ledger = ledger;
        this.wait = wait;
        this.channels = List.copyOf(channels);
    }

    /** The route that sends a channel's notifications. */
    public static String routeId(Channel channel) {
        return "deliver-" + channel.name().toLowerCase(Locale.ROOT);
    }

    /**
     * A claim the hand-off could not give to its channel's senders (their queue stayed full, or they
     * are stopped): back to PENDING, untried, due again only after a wait (the poller must not claim
     * and give it back in a loop).
     */
    public void giveBack(ClaimedNotification notification, @ExchangeProperty(Exchange.EXCEPTION_CAUGHT) Exception why) {
        ledger.release(notification, Instant.now().plus(wait));
        LOG.debug("{}: not taken by its senders ({}), left to the retry poller", notification.key(),
                why == null ? "no reason" : why.getMessage());
    }

    /** The channels whose senders run now (not stopping, not paused): the only ones the retry poller claims for. */
    public List<String> openChannels() {
        return channels.stream().filter(this::isOpen).map(Channel::name).toList();
    }

    private boolean isOpen(Channel channel) {
        return !context.isStopping()
                && context.getRouteController().getRouteStatus(routeId(channel)) == ServiceStatus.Started;
    }

    /** The queue of a channel's delivery route ({@code seda} option {@code queueFactory}): the bulkhead's rule. */
    public BlockingQueueFactory<Exchange> queueFor(Channel channel) {
        String routeId = routeId(channel);
        return new BlockingQueueFactory<>() {
            @Override
            public BlockingQueue<Exchange> create() {
                return create(Integer.MAX_VALUE);
            }

            @Override
            public BlockingQueue<Exchange> create(int capacity) {
                return new BulkheadQueue(routeId, capacity, context::isStopping);
            }
        };
    }

    /**
     * A channel's queue: a full one is waited for, a congested one is not, until it has drained to half;
     * nor is any while the service stops, so intake's thread ends its poll within the shutdown timeout.
     */
    static final class BulkheadQueue extends LinkedBlockingQueue<Exchange> {
        private final String routeId;
        private final int capacity;
        private final BooleanSupplier stopping;
        private final AtomicBoolean congested = new AtomicBoolean();

        BulkheadQueue(String routeId, int capacity, BooleanSupplier stopping) {
            super(capacity);
            this.routeId = routeId;
            this.capacity = capacity;
            this.stopping = stopping;
        }

        @Override
        public boolean offer(Exchange exchange, long timeout, TimeUnit unit) throws InterruptedException {
            if (congested.get() && remainingCapacity() * 2L >= capacity) {
                congested.set(false);
            }
            if (congested.get() || stopping.getAsBoolean()) {
                return offer(exchange);
            }
            if (super.offer(exchange, timeout, unit)) {
                return true;
            }
            if (congested.compareAndSet(false, true)) {
                LOG.warn("senders of {} stayed busy for {} ms: not waiting for them until their queue drains to half",
                        routeId, unit.toMillis(timeout));
            }
            return false;
        }
    }
}
