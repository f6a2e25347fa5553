package dev.notifier.delivery.email;

import dev.notifier.delivery.SendDeadline;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import javax.net.SocketFactory;
import javax.net.ssl.SSLSocketFactory;

/**
 * The sockets of SMTP connections, made so that a send's deadline can cut them off
 * ({@link SendDeadline}). Angus Mail takes them from here: the plain socket of every connection from
 * {@link #PLAIN} ({@code mail.<protocol>.socketFactory}), and TLS (from the first byte or after
 * STARTTLS) layered over it by {@link #layered} ({@code mail.<protocol>.ssl.socketFactory}), which
 * sees the plain socket too. Each is attached to the send under way on the connecting thread, and
 * remembered for the pool, which attaches it again to every later send over the same connection.
 */
final class SmtpSockets {

    private static final ThreadLocal<Socket> CONNECTING = new ThreadLocal<>();

    /** Plain, unconnected sockets: Angus Mail connects them itself, with its connect timeout. */
    static final SocketFactory PLAIN = new SocketFactory() {
        @Override
        public Socket createSocket() {
            return made(new Socket());
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            Socket socket = createSocket();
            socket.connect(new InetSocketAddress(host, port));
            return socket;
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            Socket socket = createSocket();
            socket.bind(new InetSocketAddress(localHost, localPort));
            socket.connect(new InetSocketAddress(host, port));
            return socket;
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            Socket socket = createSocket();
            socket.connect(new InetSocketAddress(host, port));
            return socket;
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
            Socket socket = createSocket();
            socket.bind(new InetSocketAddress(localAddress, localPort));
            socket.connect(new InetSocketAddress(address, port));
            return socket;
        }
    };

    private SmtpSockets() {
    }

    /** TLS over a plain socket, by {@code tls} (the trust store's, or the JVM's), the plain socket attached first. */
    static SSLSocketFactory layered(SSLSocketFactory tls) {
        return new SSLSocketFactory() {
            @Override
            public Socket createSocket(Socket plain, String host, int port, boolean autoClose) throws IOException {
                return tls.createSocket(made(plain), host, port, autoClose);
            }

            @Override
            public String[] getDefaultCipherSuites() {
                return tls.getDefaultCipherSuites();
            }

            @Override
            public String[] getSupportedCipherSuites() {
                return tls.getSupportedCipherSuites();
            }

            @Override
            public Socket createSocket(String host, int port) throws IOException {
                return createSocket(PLAIN.createSocket(host, port), host, port, true);
            }

            @Override
            public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
                return createSocket(PLAIN.createSocket(host, port, localHost, localPort), host, port, true);
            }

            @Override
            public Socket createSocket(InetAddress host, int port) throws IOException {
                return createSocket(PLAIN.createSocket(host, port), host.getHostName(), port, true);
            }

            @Override
            public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
                    throws IOException {
                return createSocket(PLAIN.createSocket(address, port, localAddress, localPort), address.getHostName(),
                        port, true);
            }
        };
    }

    /** Runs a connect on this thread; the plain socket it made, or null if it made none. */
    static Socket madeBy(Connect connect) throws jakarta.mail.MessagingException {
        CONNECTING.remove();
        try {
            connect.run();
            return CONNECTING.get();
        } finally {
            CONNECTING.remove();
        }
    }

    interface Connect {
        void run() throws jakarta.mail.MessagingException;
    }

    private static Socket made(Socket socket) {
        if (CONNECTING.get() == null) {
            CONNECTING.set(socket);
        }
        SendDeadline.attach(socket);
        return socket;
    }
}
