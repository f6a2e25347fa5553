package dev.notifier.delivery.http;

import dev.notifier.delivery.SendDeadline;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLSocket;
import org.apache.hc.client5.http.impl.io.DefaultManagedHttpClientConnection;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.io.HttpConnectionFactory;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.ssl.SSLContexts;
import org.apache.hc.core5.util.Timeout;

/**
 * The connections of every HTTP provider (camel-http's {@code http} and {@code https} components both
 * use this pool): pooled and kept alive as camel-http's own would be, and each one bound to the send
 * under way on the sender thread ({@link SendDeadline}). A connection attaches its plain socket to the
 * send when it is opened (so the deadline covers connecting and the TLS handshake) and when the pool
 * hands it to a sender; the deadline closes it, which ends a response dripped byte by byte that no
 * per-read timeout would. And a request is not sent at all when the deadline is too near to wait for
 * its answer: a request never written is surely not taken, and can be tried again (or elsewhere).
 */
public final class HttpConnections {

    private HttpConnections() {
    }

    /**
     * @param perRoute connections to one provider (host and port) at most: one per sender of a channel
     * @param total    connections at most, to all providers together
     */
    public static PoolingHttpClientConnectionManager pool(int perRoute, int total) {
        return PoolingHttpClientConnectionManagerBuilder.create()
                // as camel-http builds its own: the JVM's trusted CAs, the host name checked
                .setTlsSocketStrategy(ClientTlsStrategyBuilder.create().setSslContext(SSLContexts.createDefault()).buildClassic())
                .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.STRICT)
                .setMaxConnPerRoute(perRoute)
                .setMaxConnTotal(total)
                .setConnectionFactory(new Factory())
                .build();
    }

    private static final class Factory implements HttpConnectionFactory<ManagedHttpClientConnection> {
        private final AtomicLong ids = new AtomicLong();

        @Override
        public ManagedHttpClientConnection createConnection(Socket socket) throws IOException {
            DeadlineConnection connection = new DeadlineConnection("http-outgoing-" + ids.getAndIncrement());
            if (socket != null) {
                connection.bind(socket);
            }
            return connection;
        }
    }

    /** One connection, cut off by the deadline of whichever send uses it. */
    static final class DeadlineConnection extends DefaultManagedHttpClientConnection {
        private volatile Socket plain;

        DeadlineConnection(String id) {
            super(id);
        }

        @Override
        public void bind(Socket socket) throws IOException {
            attach(socket);
            super.bind(socket);
        }

        @Override
        public void bind(SSLSocket sslSocket, Socket socket) throws IOException {
            attach(socket);
            super.bind(sslSocket, socket);
        }

        /** Leased from the pool by a sender: from now on its send's deadline applies. */
        @Override
        public void activate() {
            SendDeadline.attach(plain);
            super.activate();
        }

        @Override
        public void sendRequestHeader(ClassicHttpRequest request) throws HttpException, IOException {
            Optional<SendDeadline> deadline = SendDeadline.current();
            Timeout answer = getSocketTimeout();
            if (deadline.isPresent() && answer != null && answer.isEnabled()
                    && deadline.get().remaining().compareTo(Duration.ofMillis(answer.toMilliseconds())) < 0) {
                throw new SendDeadline.TooLateToSend("request not sent: " + Math.max(0,
                        deadline.get().remaining().toMillis()) + " ms are left of the claim, and the answer may take "
                        + answer.toMilliseconds() + " ms (the endpoint's responseTimeout)");
            }
            super.sendRequestHeader(request);
        }

        private void attach(Socket socket) {
            plain = socket;
            SendDeadline.attach(socket);
        }
    }
}
