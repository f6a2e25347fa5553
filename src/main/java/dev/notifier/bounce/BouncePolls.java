package dev.notifier.bounce;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.camel.Consumer;
import org.apache.camel.Endpoint;
import org.apache.camel.support.DefaultPollingConsumerPollStrategy;
import org.apache.camel.support.ScheduledPollConsumer;

/**
 * read-bounces' poll strategy: the bounce mailbox is read again at once while a poll took mails and
 * none of them failed, so a flood of auto-replies or spam (thousands of non-DSN mails) is worked off in
 * one go instead of {@code notifier.bounces.max-per-poll} per {@code notifier.bounces.poll-millis}, and
 * the real bounce behind it is not held back for minutes. A mail that failed (the database is down, a
 * report no step can record) stays unread and waits for the next scheduled poll: greedy reading never
 * turns a failure into a loop.
 */
public final class BouncePolls extends DefaultPollingConsumerPollStrategy {

    private final AtomicInteger failed = new AtomicInteger();

    @Override
    public boolean begin(Consumer consumer, Endpoint endpoint) {
        failed.set(0);
        return true;
    }

    @Override
    public void commit(Consumer consumer, Endpoint endpoint, int polledMessages) {
        greedy(consumer, failed.get() == 0);
    }

    @Override
    public boolean rollback(Consumer consumer, Endpoint endpoint, int retryCounter, Exception e) throws Exception {
        greedy(consumer, false);
        return super.rollback(consumer, endpoint, retryCounter, e);
    }

    /** One mail of this poll failed (read-bounces' onCompletion on failure). */
    public void failed() {
        failed.incrementAndGet();
    }

    private static void greedy(Consumer consumer, boolean greedy) {
        if (consumer instanceof ScheduledPollConsumer poller) {
            poller.setGreedy(greedy);
        }
    }
}
