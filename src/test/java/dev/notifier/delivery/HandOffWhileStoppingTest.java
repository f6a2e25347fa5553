package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

/**
 * A channel's full queue is waited for while the service runs, and not once it stops: intake's thread
 * must end its poll within the shutdown timeout, so what does not fit is given back at once (fault
 * scenario 6 saw a stop forced while intake waited on full queues, up to the hand-off wait each).
 */
class HandOffWhileStoppingTest {

    private final AtomicBoolean stopping = new AtomicBoolean();
    private final ChannelSenders.BulkheadQueue queue = new ChannelSenders.BulkheadQueue("deliver-push", 1, stopping::get);
    private final Exchange exchange = new DefaultExchange(new DefaultCamelContext());

    @Test
    void shouldWaitForRoomWhileRunningAndGiveBackAtOnceWhileStopping() throws Exception {
        assertThat(queue.offer(exchange, 1, TimeUnit.SECONDS)).as("room in the queue").isTrue();

        // running: a full queue is waited for, and a sender taking one lets the waiting offer in
        CompletableFuture<Boolean> waiting = new CompletableFuture<>();
        Thread offerer = new Thread(() -> {
            try {
                waiting.complete(queue.offer(exchange, 1, TimeUnit.MINUTES));
            } catch (InterruptedException e) {
                waiting.completeExceptionally(e);
            }
        });
        offerer.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> offerer.getState() == Thread.State.TIMED_WAITING);
        assertThat(waiting).as("waiting for room while running").isNotDone();
        queue.take();
        assertThat(waiting.get(30, TimeUnit.SECONDS)).as("taken once there was room").isTrue();

        // stopping: the same full queue refuses at once, however long the hand-off would wait
        stopping.set(true);
        boolean taken = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> queue.offer(exchange, 1, TimeUnit.HOURS));
        assertThat(taken).as("a full queue while stopping").isFalse();
        assertThat(queue).hasSize(1);
        // and a queue with room still takes it: the senders drain what they were given
        queue.clear();
        assertThat(queue.offer(exchange, 1, TimeUnit.HOURS)).as("room while stopping").isTrue();
    }
}
