package dev.notifier.delivery;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The moment one send must be over by: a little before the claim it was started under ends, so that
 * no send outlives its claim and no second sender (the retry poller's next claim) ever follows one
 * that is still talking to the provider.
 *
 * <p>Every step of a send counts, whatever each step's own timeout says: waiting for a pooled
 * connection, connecting, each SMTP command and reply, a response dripped a byte at a time. The
 * connections a send uses attach their sockets to it ({@link #attach}); when the deadline comes, the
 * shared timer closes them, which ends the blocked connect, read or write at once. Before the point
 * of no return (the final dot of an email, the request line of an HTTP call) a sender asks whether
 * there is still time to wait for the answer ({@link #remaining}) and stops before it if not: a
 * message not finished is surely not taken, and is tried again later under a new claim.
 *
 * <p>A send runs on the sender thread that started it (the channel routes call their provider
 * synchronously), so the current deadline is the thread's: one at a time.
 */
public final class SendDeadline implements AutoCloseable {

    private static final ThreadLocal<SendDeadline> CURRENT = new ThreadLocal<>();

    private final Instant endsAt;
    private final long endsAtNanos;
    private final List<Socket> sockets = new ArrayList<>(2);
    private final ScheduledFuture<?> cutOff;
    private boolean expired;
    private boolean closed;

    private SendDeadline(Instant endsAt) {
        this.endsAt = endsAt;
        long left = Math.max(0, Duration.between(Instant.now(), endsAt).toNanos());
        this.endsAtNanos = System.nanoTime() + left;
        this.cutOff = SendTimer.SHARED.schedule(this::expire, left, TimeUnit.NANOSECONDS);
    }

    /** Starts this thread's send, which must be over by {@code endsAt}; ends a previous one left open. */
    public static SendDeadline start(Instant endsAt) {
        SendDeadline previous = CURRENT.get();
        if (previous != null) {
            previous.close();
        }
        SendDeadline deadline = new SendDeadline(endsAt);
        CURRENT.set(deadline);
        return deadline;
    }

    /** This thread's send, if one is under way. */
    public static Optional<SendDeadline> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /**
     * The socket carries this thread's send (if there is one): it is closed when the deadline comes, at
     * once if it has come already. Attach the plain socket under any TLS layer: closing a TLS socket
     * may wait for a write in progress, closing the one beneath never does.
     */
    public static void attach(Socket socket) {
        SendDeadline deadline = CURRENT.get();
        if (deadline != null && socket != null) {
            deadline.add(socket);
        }
    }

    /** Time left until the deadline; zero or less once it has come. */
    public Duration remaining() {
        return Duration.ofNanos(endsAtNanos - System.nanoTime());
    }

    /** Whether the deadline came while the send was under way (and closed its connections). */
    public synchronized boolean expired() {
        return expired;
    }

    public Instant endsAt() {
        return endsAt;
    }

    /** The send is over: its sockets are no longer its concern, and the deadline will not fire. */
    @Override
    public void close() {
        cutOff.cancel(false);
        synchronized (this) {
            closed = true;
            sockets.clear();
        }
        if (CURRENT.get() == this) {
            CURRENT.remove();
        }
    }

    private synchronized void add(Socket socket) {
        if (closed) {
            return;
        }
        if (expired) {
            closeQuietly(socket);
            return;
        }
        for (Socket attached : sockets) {
            if (attached == socket) {
                return;
            }
        }
        sockets.add(socket);
    }

    private synchronized void expire() {
        if (closed) {
            return;
        }
        expired = true;
        sockets.forEach(SendDeadline::closeQuietly);
        sockets.clear();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closed is closed
        }
    }

    /**
     * Thrown before the point of no return when the deadline is too near to wait for the provider's
     * answer: nothing was handed over, so trying again (later, or elsewhere) cannot deliver it twice.
     */
    public static final class TooLateToSend extends IOException {
        public TooLateToSend(String message) {
            super(message);
        }
    }
}
