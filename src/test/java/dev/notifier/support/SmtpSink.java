package dev.notifier.support;

import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A minimal SMTP server: the protocol's plain path (HELO/EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT),
 * optionally SMTPUTF8 and STARTTLS, a thread per connection. Each recipient gets the reply
 * {@code recipientReply} gives it; each message accepted is handed over with its envelope exactly as
 * the client wrote it (UTF-8 bytes decoded as UTF-8, so a byte-cut character shows) and its Message-ID.
 *
 * <p>Every reply is one write on a socket with TCP_NODELAY: GreenMail writes multi-line replies line
 * by line with Nagle's algorithm on, and each such reply then waits for the client's delayed ACK,
 * about 40 ms per message, which made a local sink the slowest part of a benchmark.
 */
public final class SmtpSink implements AutoCloseable {

    /**
     * A message the sink accepted.
     *
     * @param mailFrom   the MAIL FROM command's argument, parameters included ({@code <a@b> SMTPUTF8})
     * @param connection which connection it came on (1, 2, ... in the order they were accepted)
     */
    public record AcceptedMail(List<String> recipients, String messageId, String mailFrom, int connection, boolean tls) {

        public AcceptedMail(List<String> recipients, String messageId) {
            this(recipients, messageId, null, 0, false);
        }
    }

    /**
     * @param smtpUtf8   announce SMTPUTF8 (RFC 6531) in the EHLO reply
     * @param tls        announce STARTTLS and speak TLS with this context after it; null: no STARTTLS
     * @param replyDelay how late every reply comes, the greeting included: a relay that is slow, not down
     */
    public record Options(boolean smtpUtf8, SSLContext tls, java.time.Duration replyDelay) {
        public static final Options PLAIN = new Options(false, null);

        public Options(boolean smtpUtf8, SSLContext tls) {
            this(smtpUtf8, tls, java.time.Duration.ZERO);
        }

        /** Plain SMTP, every reply this late. */
        public static Options slow(java.time.Duration replyDelay) {
            return new Options(false, null, replyDelay);
        }
    }

    private static final String REJECT_RECIPIENT = "550 5.1.1 Recipient address rejected: user unknown";

    private final ServerSocket server;
    private final Function<String, String> recipientReply;
    private final Consumer<AcceptedMail> onMessage;
    private final Options options;
    private final ExecutorService connections = Executors.newCachedThreadPool();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile java.time.Duration replyDelay;
    private final AtomicInteger dropsAfterDot = new AtomicInteger();

    public SmtpSink(int port, Function<String, String> recipientReply, Consumer<AcceptedMail> onMessage)
            throws IOException {
        this(port, recipientReply, onMessage, Options.PLAIN);
    }

    public SmtpSink(int port, Function<String, String> recipientReply, Consumer<AcceptedMail> onMessage, Options options)
            throws IOException {
        this.recipientReply = recipientReply;
        this.onMessage = onMessage;
        this.options = options;
        this.replyDelay = options.replyDelay();
        server = new ServerSocket();
        // a sink stopped and started again (an outage) binds the same port at once
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 100);
        Thread acceptor = new Thread(this::accept, "smtp-sink-" + port());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Accepts every recipient and records every message. */
    public static SmtpSink recording(Consumer<AcceptedMail> onMessage, Options options) throws IOException {
        return new SmtpSink(0, recipient -> "250 2.1.5 Ok", onMessage, options);
    }

    /** Refuses every recipient with {@code 550 5.1.1}: the permanent rejection GreenMail cannot be told to give. */
    public static SmtpSink rejectingEveryRecipient() throws IOException {
        return new SmtpSink(0, recipient -> REJECT_RECIPIENT, mail -> { });
    }

    public int port() {
        return server.getLocalPort();
    }

    /** How many connections clients opened so far. */
    /** The next {@code messages} messages are taken (recorded) and their connection closed before the answer. */
    public void dropAnswersAfterTheDot(int messages) {
        dropsAfterDot.set(messages);
    }

    public int connectionsAccepted() {
        return accepted.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                open.add(socket);
                int number = accepted.incrementAndGet();
                connections.execute(() -> converse(socket, number));
            } catch (IOException e) {
                // closed: the loop ends
            }
        }
    }

    private void converse(Socket plain, int number) {
        Socket socket = plain;
        try {
            BufferedReader in = reader(socket);
            OutputStream out = socket.getOutputStream();
            answer(out, "220 sink ESMTP");
            List<String> recipients = new ArrayList<>();
            String mailFrom = null;
            boolean tls = false;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String command = line.toUpperCase(Locale.ROOT);
                if (command.startsWith("EHLO")) {
                    answer(out, ehlo(tls));
                } else if (command.startsWith("HELO")) {
                    answer(out, "250 sink");
                } else if (command.equals("STARTTLS") && options.tls() != null && !tls) {
                    answer(out, "220 2.0.0 Ready to start TLS");
                    SSLSocket secured = (SSLSocket) options.tls().getSocketFactory()
                            .createSocket(socket, socket.getInetAddress().getHostAddress(), socket.getPort(), true);
                    secured.setUseClientMode(false);
                    secured.startHandshake();
                    socket = secured;
                    open.add(socket);
                    in = reader(socket);
                    out = socket.getOutputStream();
                    tls = true;
                } else if (command.startsWith("MAIL FROM")) {
                    recipients.clear();
                    mailFrom = utf8(line.substring(line.indexOf(':') + 1).trim());
                    answer(out, "250 2.1.0 Ok");
                } else if (command.startsWith("RCPT TO")) {
                    String recipient = utf8(line.substring(line.indexOf(':') + 1).trim().replaceAll("^<|>.*$", ""));
                    String answer = recipientReply.apply(recipient);
                    if (answer.startsWith("2")) {
                        recipients.add(recipient);
                    }
                    answer(out, answer);
                } else if (command.equals("DATA") && !recipients.isEmpty()) {
                    answer(out, "354 End data with <CR><LF>.<CR><LF>");
                    onMessage.accept(new AcceptedMail(List.copyOf(recipients), readMessageId(in), mailFrom, number, tls));
                    if (dropsAfterDot.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        // taken, and the answer lost: the connection goes before the 250
                        return;
                    }
                    answer(out, "250 2.0.0 Ok: queued");
                } else if (command.equals("QUIT")) {
                    answer(out, "221 2.0.0 Bye");
                    return;
                } else if (command.equals("RSET") || command.equals("NOOP")) {
                    answer(out, "250 2.0.0 Ok");
                } else {
                    answer(out, "503 5.5.1 Bad sequence of commands");
                }
            }
        } catch (IOException e) {
            // the client went away, or the sink was closed under it (an outage)
        } finally {
            try {
                socket.close();
            } catch (IOException ignored) {
                // going away anyway
            }
            open.remove(socket);
            open.remove(plain);
        }
    }

    private String ehlo(boolean tls) {
        StringBuilder lines = new StringBuilder("250-sink\r\n");
        if (options.smtpUtf8()) {
            lines.append("250-SMTPUTF8\r\n");
        }
        if (options.tls() != null && !tls) {
            lines.append("250-STARTTLS\r\n");
        }
        return lines.append("250 8BITMIME").toString();
    }

    /** Lines are read as ISO-8859-1, byte for byte; what a client meant as UTF-8 is decoded as such. */
    private static String utf8(String bytesAsLatin1) {
        return new String(bytesAsLatin1.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    private static BufferedReader reader(Socket socket) throws IOException {
        return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
    }

    /**
     * Reads the message up to the lone dot; its Message-ID header, if any. A client that goes away
     * before the dot (killed mid-message) has not sent a message, and none is accepted, as a real
     * server would not.
     */
    private static String readMessageId(BufferedReader in) throws IOException {
        String messageId = null;
        boolean inHeaders = true;
        for (String line = in.readLine(); !".".equals(line); line = in.readLine()) {
            if (line == null) {
                throw new EOFException("the client went away before the end of its message");
            }
            if (line.isEmpty()) {
                inHeaders = false;
            } else if (inHeaders && line.regionMatches(true, 0, "Message-ID:", 0, 11)) {
                messageId = line.substring(11).trim();
            }
        }
        return messageId;
    }

    /** From now on every reply comes this late: a relay that becomes slow, not down. */
    public void replyDelay(java.time.Duration delay) {
        replyDelay = delay;
    }

    /** A reply of this sink's: after the configured delay. */
    private void answer(OutputStream out, String line) throws IOException {
        java.time.Duration delay = replyDelay;
        if (!delay.isZero()) {
            try {
                // the slowness under test, not synchronisation
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("closed while replying", e);
            }
        }
        reply(out, line);
    }

    /** One SMTP reply line, sent at once: for a hand-made server in a test as well. */
    public static void reply(OutputStream out, String line) throws IOException {
        out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Stops listening and drops the connections in progress, as a server that went down would. */
    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : open) {
            socket.close();
        }
        connections.shutdownNow();
    }
}
