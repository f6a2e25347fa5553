package dev.notifier.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A minimal SMTP server that speaks the protocol correctly and refuses every recipient with
 * {@code 550 5.1.1}: the permanent rejection GreenMail cannot be told to give.
 */
public final class RejectingSmtpServer implements AutoCloseable {

    private final ServerSocket server;
    private final Thread thread;

    public RejectingSmtpServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        thread = new Thread(this::serve, "rejecting-smtp");
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket socket = server.accept();
                 BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
                 PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.US_ASCII)) {
                reply(out, "220 rejecting.test ESMTP");
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    String command = line.toUpperCase(Locale.ROOT);
                    if (command.startsWith("EHLO") || command.startsWith("HELO")) {
                        reply(out, "250 rejecting.test");
                    } else if (command.startsWith("MAIL FROM")) {
                        reply(out, "250 2.1.0 Ok");
                    } else if (command.startsWith("RCPT TO")) {
                        reply(out, "550 5.1.1 Recipient address rejected: user unknown");
                    } else if (command.startsWith("QUIT")) {
                        reply(out, "221 2.0.0 Bye");
                        break;
                    } else {
                        reply(out, command.startsWith("RSET") || command.startsWith("NOOP") ? "250 Ok" : "503 5.5.1 Bad sequence");
                    }
                }
            } catch (IOException e) {
                // a closed server socket ends the loop; a broken client connection is the client's business
            }
        }
    }

    private static void reply(PrintWriter out, String line) {
        out.print(line + "\r\n");
        out.flush();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
