package dev.notifier.delivery.email;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.notifier.delivery.SendTimer;
import dev.notifier.support.SmtpSink;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.junit.jupiter.api.Test;

/**
 * The write timeout on the shared timer: a server that stops reading in the middle of a message
 * still cannot hold a sender past it, and the writes of messages that go through leave nothing
 * behind in the timer's queue.
 */
class WriteTimeoutTimerTest {

    private static final Duration TIMEOUT = Duration.ofMillis(500);

    @Test
    void shouldCutOffAMessageTheServerStoppedReading() throws Exception {
        try (StopsReadingAtData server = new StopsReadingAtData()) {
            Session session = Session.getInstance(SmtpSessions.properties(settings(), "smtp"));
            // far more than the socket buffers on both sides hold, so the write has to wait for a reader
            MimeMessage message = message(session, "x".repeat(76).concat("\r\n").repeat(400_000));

            Transport transport = session.getTransport("smtp");
            transport.connect("127.0.0.1", server.port(), null, null);
            try {
                // without a write timeout the send would wait for ever: this bound is the test failing, not a measurement
                Throwable thrown = assertTimeoutPreemptively(Duration.ofSeconds(60),
                        () -> catchThrowable(() -> transport.sendMessage(message, message.getAllRecipients())));

                assertThat(server.dataAccepted.getCount()).as("the server took DATA: the body was being written").isZero();
                assertThat(thrown).isInstanceOf(MessagingException.class).hasStackTraceContaining("Write timed out");
            } finally {
                // the server's end first: a send still stuck in its write (no timeout) fails then, and lets go of the transport
                server.close();
                try {
                    transport.close();
                } catch (MessagingException e) {
                    // its socket is closed already
                }
            }
        }
    }

    @Test
    void shouldLeaveOnlyItsOwnTaskInTheTimerOnceMessagesAreSent() throws Exception {
        List<SmtpSink.AcceptedMail> received = new CopyOnWriteArrayList<>();
        try (SmtpSink sink = SmtpSink.recording(received::add, SmtpSink.Options.PLAIN)) {
            Session session = Session.getInstance(SmtpSessions.properties(settings(), "smtp"));
            try (Transport transport = session.getTransport("smtp")) {
                transport.connect("127.0.0.1", sink.port(), null, null);
                for (int i = 0; i < 20; i++) {
                    MimeMessage message = message(session, "Your transfer is complete.");
                    transport.sendMessage(message, message.getAllRecipients());
                }
            }
            assertThat(received).hasSize(20);
        }
        assertThat(writeTimeoutExecutor()).as("the timer the session hands to Angus Mail").isSameAs(SendTimer.SHARED);
        // every write's task cancelled and removed; the keep-ahead task stays (other tests may be writing now)
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ((ScheduledThreadPoolExecutor) SendTimer.SHARED).getQueue().size() == 1);
    }

    private static Object writeTimeoutExecutor() {
        return SmtpSessions.properties(settings(), "smtp").get("mail.smtp.executor.writetimeout");
    }

    private static SmtpSettings settings() {
        return new SmtpSettings("no-reply@notifier.local", SmtpSettings.Tls.NONE, null, null, false, TIMEOUT, 1, 100,
                Duration.ofSeconds(10), Duration.ofSeconds(5));
    }

    private static MimeMessage message(Session session, String text) throws MessagingException {
        MimeMessage message = new MimeMessage(session);
        message.setFrom(new InternetAddress("no-reply@notifier.local"));
        message.setRecipient(Message.RecipientType.TO, new InternetAddress("someone@example.com"));
        message.setSubject("Transfer completed", "UTF-8");
        message.setText(text, "UTF-8");
        return message;
    }

    /** Answers EHLO, MAIL, RCPT and DATA, then never reads again while the connection lasts. */
    private static final class StopsReadingAtData implements AutoCloseable {

        final CountDownLatch dataAccepted = new CountDownLatch(1);
        private final ServerSocket server;
        private final Thread thread;
        private volatile Socket client;

        StopsReadingAtData() throws Exception {
            server = new ServerSocket();
            // a small window: the client's writes fill it and its own send buffer soon
            server.setReceiveBufferSize(4096);
            server.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            thread = new Thread(this::serve, "stops-reading-at-data");
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void serve() {
            try {
                client = server.accept();
                BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.US_ASCII));
                OutputStream out = client.getOutputStream();
                SmtpSink.reply(out, "220 stops-reading ESMTP");
                String line;
                while ((line = in.readLine()) != null) {
                    String command = line.length() >= 4 ? line.substring(0, 4).toUpperCase() : line;
                    switch (command) {
                        case "EHLO", "HELO" -> SmtpSink.reply(out, "250 stops-reading");
                        case "DATA" -> {
                            SmtpSink.reply(out, "354 go ahead");
                            dataAccepted.countDown();
                            // and never read again: the client's writes pile up until its socket is closed
                            new CountDownLatch(1).await();
                        }
                        default -> SmtpSink.reply(out, "250 ok");
                    }
                }
            } catch (Exception e) {
                // closed by the test
            }
        }

        @Override
        public void close() throws IOException {
            thread.interrupt();
            server.close();
            if (client != null) {
                client.close();
            }
        }
    }
}
