package dev.notifier.delivery.email;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.delivery.NotificationKey;
import dev.notifier.delivery.SendDeadline;
import dev.notifier.event.TransferEvent;
import dev.notifier.support.ContractEvent;
import dev.notifier.support.TestTemplates;
import dev.notifier.support.SmtpSink;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SMTP connections reused across messages, against a real SMTP server that counts connections: a
 * bounded pool, a maximum of messages per connection, and a fresh connection after a failure.
 */
class SmtpSenderTest {

    private final List<SmtpSink.AcceptedMail> received = new CopyOnWriteArrayList<>();
    private final ExecutorService senders = Executors.newFixedThreadPool(8);
    private SmtpSink sink;
    private SmtpSender sender;

    @AfterEach
    void close() throws Exception {
        senders.shutdownNow();
        if (sender != null) {
            sender.close();
        }
        if (sink != null) {
            sink.close();
        }
    }

    @Test
    void shouldReuseABoundedNumberOfConnectionsEachForABoundedNumberOfMessages() throws Exception {
        sink = SmtpSink.recording(received::add, SmtpSink.Options.PLAIN);
        sender = sender(4, 10);

        sendConcurrently(100);

        assertThat(received).hasSize(100);
        Map<Integer, Long> perConnection = received.stream()
                .collect(Collectors.groupingBy(SmtpSink.AcceptedMail::connection, Collectors.counting()));
        assertThat(perConnection.values()).allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(10));
        // 100 messages, at most 10 each: at least 10 connections, and far fewer than one per message
        assertThat(sink.connectionsAccepted()).isBetween(10, 20);
    }

    @Test
    void shouldConnectAnewAfterTheServerDroppedItsConnections() throws Exception {
        int port = dev.notifier.processes.ManagedProcess.freePort();
        sink = new SmtpSink(port, recipient -> "250 2.1.5 Ok", received::add, SmtpSink.Options.PLAIN);
        sender = sender(2, 100);
        sender.send(message());
        sink.close();
        // the server is back on the same port; the pooled connection is dead. The kernel may hold the
        // port a moment after the close (the pooled client has not closed its end yet): bind as soon as it lets go
        sink = org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).ignoreExceptionsInstanceOf(java.net.BindException.class)
                .until(() -> new SmtpSink(port, recipient -> "250 2.1.5 Ok", received::add, SmtpSink.Options.PLAIN),
                        java.util.Objects::nonNull);

        Throwable first = catchAll(() -> sender.send(message()));
        sender.send(message());

        // the dead connection fails one attempt at most (a transient failure, retried later) and is
        // dropped; the next message goes over a new connection to the restarted server
        assertThat(received).hasSize(first == null ? 3 : 2);
        assertThat(sink.connectionsAccepted()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void shouldStopBeforeTheFinalDotWhenTheServersAnswerCouldNotComeBeforeTheDeadline() throws Exception {
        sink = SmtpSink.recording(received::add, SmtpSink.Options.PLAIN);
        sender = sender(1, 100);
        sender.send(message());

        // the answer to the dot may take the 5 s timeout: 2 s left is not enough to wait for it
        Throwable stopped;
        try (SendDeadline deadline = SendDeadline.start(Instant.now().plusSeconds(2))) {
            stopped = catchAll(() -> sender.send(message()));
        }
        try (SendDeadline deadline = SendDeadline.start(Instant.now().plusSeconds(30))) {
            sender.send(message());
        }

        assertThat(stopped).isInstanceOf(jakarta.mail.MessagingException.class)
                .hasRootCauseInstanceOf(SendDeadline.TooLateToSend.class).rootCause().hasMessageContaining("before the final dot");
        // the server never got the dot: it took nothing, so a retry cannot deliver the message twice
        assertThat(received).hasSize(2);
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldWaitForAFreeConnectionOnlyAsLongAsItMayAndNeverPastTheDeadline() throws Exception {
        // a server that never greets: the one connection stays busy connecting for the whole test
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            sender = new SmtpSender(new SmtpSettings("alerts@bank.example", SmtpSettings.Tls.NONE, null, null, false,
                    Duration.ofSeconds(60), 1, 100, Duration.ofSeconds(30), Duration.ofMillis(300)));
            sender.setHost("127.0.0.1");
            sender.setPort(silent.getLocalPort());
            Future<?> holding = senders.submit(() -> {
                try (SendDeadline deadline = SendDeadline.start(Instant.now().plusSeconds(30))) {
                    sender.send(message());
                }
                return null;
            });
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> accepted(silent));

            Throwable waited = catchAll(() -> sender.send(message()));
            Throwable late;
            try (SendDeadline deadline = SendDeadline.start(Instant.now().minusMillis(1))) {
                late = catchAll(() -> sender.send(message()));
            }

            assertThat(waited).isInstanceOf(SmtpConnectionPool.NoConnectionFree.class)
                    .hasMessageContaining("within 300 ms").hasMessageContaining("not sent");
            assertThat(late).isInstanceOf(SmtpConnectionPool.NoConnectionFree.class).hasMessageContaining("within 0 ms");
            assertThat(holding).isNotDone();
            holding.cancel(true);
        }
    }

    /** Whether the server has a connection waiting to be accepted (the client connected). */
    private static boolean accepted(java.net.ServerSocket server) throws java.io.IOException {
        server.setSoTimeout(100);
        try {
            server.accept();
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        }
    }

    private void sendConcurrently(int messages) throws Exception {
        List<Future<?>> sends = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            sends.add(senders.submit(() -> {
                sender.send(message());
                return null;
            }));
        }
        for (Future<?> send : sends) {
            send.get();
        }
    }

    private SmtpSender sender(int connections, int perConnection) {
        SmtpSender created = new SmtpSender(new SmtpSettings("alerts@bank.example", SmtpSettings.Tls.NONE, null, null,
                false, Duration.ofSeconds(5), connections, perConnection, Duration.ofSeconds(30), Duration.ofSeconds(5)));
        created.setHost("127.0.0.1");
        created.setPort(sink.port());
        return created;
    }

    private static jakarta.mail.internet.MimeMessage message() throws Exception {
        TransferEvent event = ContractEvent.event().eventId(UUID.randomUUID()).build();
        EmailComposer composer = new EmailComposer("alerts@bank.example", TestTemplates.shipped());
        return composer.compose(new ClaimedNotification(new NotificationKey(event.eventId(), dev.notifier.event.Channel.EMAIL), event, null, 1,
                Instant.now(), "t", Instant.now().plusSeconds(60)));
    }

    private static Throwable catchAll(ThrowingRunnable runnable) {
        try {
            runnable.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
