package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A send's deadline cuts off whatever its connections are blocked in, and only while the send runs. */
class SendDeadlineTest {

    /** Far longer than any of these tests: a read that ends, ends because of the deadline. */
    private static final int READ_TIMEOUT_MILLIS = 120_000;

    private ServerSocket silent;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    @BeforeEach
    void silentServer() throws IOException {
        // accepts connections and never says a word
        silent = new ServerSocket();
        silent.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(() -> {
            while (!silent.isClosed()) {
                try {
                    accepted.add(silent.accept());
                } catch (IOException e) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void close() throws IOException {
        SendDeadline.current().ifPresent(SendDeadline::close);
        silent.close();
        for (Socket socket : accepted) {
            socket.close();
        }
    }

    @Test
    void shouldCutOffAReadThatItsOwnTimeoutWouldLetRunOn() throws Exception {
        Socket socket = connected();
        SendDeadline deadline = SendDeadline.start(Instant.now().plusMillis(300));
        SendDeadline.attach(socket);

        long started = System.nanoTime();
        Throwable thrown = catchThrowable(() -> socket.getInputStream().read());

        assertThat(thrown).isInstanceOf(SocketException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(READ_TIMEOUT_MILLIS / 2));
        assertThat(deadline.expired()).isTrue();
        assertThat(deadline.remaining().isNegative() || deadline.remaining().isZero()).isTrue();
    }

    @Test
    void shouldCloseASocketAttachedAfterTheDeadlineCame() throws Exception {
        SendDeadline deadline = SendDeadline.start(Instant.now().minusMillis(1));
        await().atMost(Duration.ofSeconds(10)).until(deadline::expired);
        Socket socket = connected();

        SendDeadline.attach(socket);

        assertThat(socket.isClosed()).isTrue();
    }

    @Test
    void shouldLeaveTheConnectionAloneOnceTheSendIsOver() throws Exception {
        Socket socket = connected();
        SendDeadline deadline = SendDeadline.start(Instant.now().plusMillis(200));
        SendDeadline.attach(socket);

        deadline.close();

        // the connection goes back to a pool: long after the deadline it is still open and usable
        socket.setSoTimeout(1500);
        Throwable thrown = catchThrowable(() -> socket.getInputStream().read());
        assertThat(thrown).isInstanceOf(java.net.SocketTimeoutException.class);
        assertThat(socket.isClosed()).isFalse();
        assertThat(deadline.expired()).isFalse();
        assertThat(SendDeadline.current()).isEmpty();
    }

    @Test
    void shouldBelongToTheThreadThatStartedIt() throws Exception {
        SendDeadline deadline = SendDeadline.start(Instant.now().plusMillis(300));
        java.util.concurrent.atomic.AtomicReference<java.util.Optional<SendDeadline>> seenElsewhere =
                new java.util.concurrent.atomic.AtomicReference<>();
        Socket socket = connected();
        // another thread's connection is not this send's: the deadline does not close it
        Thread other = new Thread(() -> {
            seenElsewhere.set(SendDeadline.current());
            SendDeadline.attach(socket);
        });
        other.start();
        other.join();
        await().atMost(Duration.ofSeconds(10)).until(deadline::expired);

        assertThat(seenElsewhere.get()).isEmpty();
        assertThat(SendDeadline.current()).contains(deadline);
        assertThat(socket.isClosed()).isFalse();
    }

    private Socket connected() throws IOException {
        Socket socket = new Socket();
        socket.connect(silent.getLocalSocketAddress(), 5000);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        return socket;
    }
}
