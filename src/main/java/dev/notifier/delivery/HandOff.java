package dev.notifier.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.Route;
import org.apache.camel.ServiceStatus;
import org.apache.camel.component.seda.SedaEndpoint;
import org.apache.camel.support.DefaultExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands claimed notifications (the body, a list) to their channel's senders: the queue of route
 * {@code deliver-<channel>}, one per channel, each with its own threads (a bulkhead: a slow or
 * hanging provider holds up its own channel only).
 *
 * <p>When a channel's queue is full, the caller waits for room, up to {@code wait}: intake slows to
 * the senders' pace and the backlog stays in Kafka. A channel that stayed full that long is
 * congested (its provider hangs, or is slower than everything else): until its queue has drained
 * to half, nobody waits for it again, so it cannot hold up intake, and with it every other channel.
 * A notification no queue takes, or whose channel's route is stopped, is handed back (RELEASE) to
 * the retry poller: later, never lost.
 */
public final class HandOff implements Processor {

    private static final Logger LOG = LoggerFactory.getLogger("dev.notifier.delivery");

    private final CamelContext context;
    private final DeliveryLedger ledger;
    private final Duration wait;
    private final List<String> channels;
    private final Map<String, ChannelQueue> queues = new ConcurrentHashMap<>();

    /** @param channels every channel that has a {@code deliver-<channel>} route */
    public HandOff(CamelContext context, DeliveryLedger ledger, Duration wait, List<String> channels) {
        this.context = context;
        this.ledger = ledger;
        this.wait = wait;
        this.channels = List.copyOf(channels);
    }

    /** The route that sends a channel's notifications. */
    public static String routeId(String channel) {
        return "deliver-" + channel.toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public void process(Exchange exchange) throws InterruptedException {
        List<?> claimed = exchange.getMessage().getBody(List.class);
        if (claimed == null) {
            return;
        }
        for (Object item : claimed) {
            handOff((ClaimedNotification) item);
        }
    }

    private void handOff(ClaimedNotification notification) throws InterruptedException {
        ChannelQueue queue = queues.computeIfAbsent(notification.key().channel(), this::queueOf);
        if (!queue.isOpen() || !queue.offer(notification)) {
            // due again only after a wait: the poller must not claim and release it in a loop
            ledger.release(notification, Instant.now().plus(wait));
            LOG.debug("{}: its senders are busy or stopped, left to the retry poller", notification.key());
        }
    }

    /** The channels whose senders run now: the only ones the retry poller should claim for. */
    public List<String> openChannels() {
        return channels.stream().filter(channel -> queues.computeIfAbsent(channel, this::queueOf).isOpen()).toList();
    }

    private ChannelQueue queueOf(String channel) {
        return new ChannelQueue(routeId(channel));
    }

    private final class ChannelQueue {
        private final String routeId;
        private final AtomicBoolean congested = new AtomicBoolean();
        private volatile BlockingQueue<Exchange> queue;

        ChannelQueue(String routeId) {
            this.routeId = routeId;
        }

        /** Only while its route runs (not stopping, not paused): otherwise straight to the poller. */
        boolean isOpen() {
            return !context.isStopping() && context.getRouteController().getRouteStatus(routeId) == ServiceStatus.Started;
        }

        boolean offer(ClaimedNotification notification) throws InterruptedException {
            BlockingQueue<Exchange> q = queue();
            Exchange exchange = new DefaultExchange(context);
            exchange.getMessage().setBody(notification);
            if (congested.get() && q.remainingCapacity() * 2 >= capacity(q)) {
                congested.set(false);
            }
            if (congested.get()) {
                return q.offer(exchange);
            }
            if (q.offer(exchange, wait.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
            congested.set(true);
            LOG.warn("senders of {} stayed busy for {} ms: not waiting for them until their queue drains to half",
                    routeId, wait.toMillis());
            return false;
        }

        private BlockingQueue<Exchange> queue() {
            BlockingQueue<Exchange> q = queue;
            if (q == null) {
                Route route = context.getRoute(routeId);
                if (route == null) {
                    throw new IllegalStateException("no route " + routeId + " delivers this channel");
                }
                q = ((SedaEndpoint) route.getEndpoint()).getQueue();
                queue = q;
            }
            return q;
        }

        private int capacity(BlockingQueue<Exchange> q) {
            return q.size() + q.remainingCapacity();
        }
    }
}
