package dev.notifier.delivery.email;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The timer behind every SMTP connection's write timeout, given to Angus Mail as
 * {@code mail.<protocol>.executor.writetimeout}.
 *
 * <p>Before each write to the server Angus Mail schedules a task that closes the socket once the
 * timeout has elapsed, and cancels it when the write returns: four writes or more per message. Left
 * to itself it gives every connection a timer thread of its own, whose queue is empty between
 * writes, so each write's task goes to the front of the queue and wakes that thread: a futex call
 * and a context switch per write, 4 % of the service's sender and intake threads' CPU in a profile
 * of the benchmark (docs/performance.md). This one timer, shared by every connection, always holds a
 * task due sooner than any write's (a no-op each second), so a write's task never goes to the front
 * of its queue and never wakes it: scheduling and cancelling are an insertion and a removal. A write
 * that does outlive its timeout is cut off by its task as before, on time.
 */
final class WriteTimeoutTimer {

    /** How often the no-op runs: any write timeout of a second or more never wakes the timer. */
    static final long KEEP_AHEAD_MILLIS = 1000;

    static final ScheduledExecutorService SHARED = create();

    private WriteTimeoutTimer() {
    }

    private static ScheduledExecutorService create() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "smtp-write-timeout");
            thread.setDaemon(true);
            return thread;
        });
        // a cancelled write's task leaves the queue at once, not when it would have been due
        timer.setRemoveOnCancelPolicy(true);
        timer.scheduleWithFixedDelay(() -> { }, KEEP_AHEAD_MILLIS, KEEP_AHEAD_MILLIS, TimeUnit.MILLISECONDS);
        return timer;
    }
}
