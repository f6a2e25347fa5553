package dev.notifier.delivery;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one timer behind every send's time limits: each send's deadline ({@link SendDeadline}) and
 * every SMTP connection's write timeout (given to Angus Mail as {@code mail.<protocol>.executor.writetimeout}).
 *
 * <p>Both schedule a task before the work they limit and cancel it after: a send, and every write to
 * an SMTP server (four or more per message). A timer whose queue is empty between them puts each new
 * task at the front of its queue, which wakes its thread: a futex call and a context switch per task.
 * Left to itself Angus Mail gives every connection such a timer, and that was 4 % of the service's
 * sender and intake threads' CPU in a profile of the benchmark (docs/performance.md). This timer,
 * shared by all, always holds a task due sooner than any of theirs (a no-op each second), so theirs
 * never go to the front of its queue and never wake it: scheduling and cancelling are an insertion
 * and a removal. A task that does come due still runs on time.
 */
public final class SendTimer {

    /** How often the no-op runs: any limit of a second or more never wakes the timer. */
    static final long KEEP_AHEAD_MILLIS = 1000;

    public static final ScheduledExecutorService SHARED = create();

    private SendTimer() {
    }

    private static ScheduledExecutorService create() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "notifier-send-timer");
            thread.setDaemon(true);
            return thread;
        });
        // a cancelled task leaves the queue at once, not when it would have been due
        timer.setRemoveOnCancelPolicy(true);
        timer.scheduleWithFixedDelay(() -> { }, KEEP_AHEAD_MILLIS, KEEP_AHEAD_MILLIS, TimeUnit.MILLISECONDS);
        return timer;
    }
}
