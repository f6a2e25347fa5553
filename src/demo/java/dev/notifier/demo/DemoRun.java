package dev.notifier.demo;

import dev.notifier.NotifierApplication;
import dev.notifier.ops.PeerInbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import javax.sql.DataSource;
import org.apache.camel.main.Main;
import org.apache.camel.main.SimpleMainShutdownStrategy;
import org.apache.camel.spi.Registry;
import org.apache.kafka.common.utils.Utils;

/**
 * One run of the demo: a temporary directory, the embedded Kafka broker, PostgreSQL, SMTP server, push
 * gateway, and the production application (same routes, same beans) pointed at them. Parts start in
 * order and close in reverse; the directory goes last. {@link #close()} may come from a shutdown hook
 * at any time, also while parts are still starting: a part that starts after it is closed at once.
 */
final class DemoRun implements AutoCloseable {

    // the contract's defaults, fixed here so that NOTIFIER_* variables of the shell cannot leak in
    static final String TOPIC = "transfer.completed";
    static final String DLQ_TOPIC = "transfer.completed.dlq";
    static final String GROUP = "notifier";

    private final Deque<AutoCloseable> toClose = new ArrayDeque<>();
    private boolean closed;
    private EmbeddedKafka kafka;
    private EmbeddedDatabase database;
    private EmbeddedSmtpServer smtp;
    private EmbeddedPushGateway push;
    private EmbeddedPushGateway pushFallback;
    private EmbeddedLineApi line;
    private Main application;

    /** Starts every part; on failure the caller closes what did start. */
    void start(DemoOptions options) throws Exception {
        Path directory = Files.createTempDirectory("notifier-demo-");
        closeLater(() -> Utils.delete(directory.toFile()));
        // PostgreSQL's initdb and Kafka's start-up take seconds each: side by side
        CompletableFuture<EmbeddedDatabase> starting = CompletableFuture.supplyAsync(() -> {
            try {
                return EmbeddedDatabase.start();
            } catch (IOException e) {
                throw new UncheckedIOException("PostgreSQL did not start: " + e.getMessage(), e);
            }
        });
        try {
            kafka = closeLater(EmbeddedKafka.start(directory.resolve("kafka"), options.port(DemoPort.KAFKA)));
            SampleProducer.createTopics(kafka.bootstrapServers(), TOPIC, DLQ_TOPIC);
        } finally {
            database = closeLater(awaitDatabase(starting));
        }
        smtp = closeLater(EmbeddedSmtpServer.start(options.port(DemoPort.SMTP), options.port(DemoPort.IMAP)));
        push = closeLater(EmbeddedPushGateway.start(options.port(DemoPort.PUSH)));
        pushFallback = closeLater(EmbeddedPushGateway.startFallback(options.port(DemoPort.PUSH_FALLBACK)));
        line = closeLater(EmbeddedLineApi.start(options.port(DemoPort.LINE)));
        Main main = NotifierApplication.newMain(applicationOverrides(options.port(DemoPort.HTTP)));
        // no JVM hook of Camel's own: the demo's hook must stop the application before Kafka, not beside it
        main.setShutdownStrategy(new SimpleMainShutdownStrategy());
        // what the status page shows as "received by the peers"
        main.bind("peerInbox", new CombinedPeerInbox(smtp, push, pushFallback, line));
        closeLater(main::stop);
        main.start();
        application = main;
    }

    private static EmbeddedDatabase awaitDatabase(CompletableFuture<EmbeddedDatabase> starting) throws Exception {
        try {
            return starting.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private Map<String, String> applicationOverrides(int httpPort) {
        Map<String, String> p = new HashMap<>();
        p.put("notifier.kafka.brokers", kafka.bootstrapServers());
        p.put("notifier.kafka.topic", TOPIC);
        p.put("notifier.kafka.dlq-topic", DLQ_TOPIC);
        p.put("notifier.kafka.group", GROUP);
        p.put("notifier.db.url", database.url());
        p.put("notifier.db.user", EmbeddedDatabase.USER);
        p.put("notifier.db.password", "");
        p.put("notifier.smtp.host", "127.0.0.1");
        p.put("notifier.smtp.port", String.valueOf(smtpPort()));
        p.put("notifier.smtp.user", "");
        p.put("notifier.smtp.password", "");
        // bounces: the SMTP server reports a missing mailbox to this address, in its IMAP bounce mailbox
        p.put("notifier.bounce.address", EmbeddedSmtpServer.BOUNCE_ADDRESS);
        p.put("notifier.bounce.imap-url", "imap://127.0.0.1:" + smtp.imapPort() + "/INBOX");
        p.put("notifier.bounce.user", EmbeddedSmtpServer.BOUNCE_USER);
        p.put("notifier.bounce.password", EmbeddedSmtpServer.BOUNCE_PASSWORD);
        p.put("notifier.bounces.poll-millis", "250");
        p.put("notifier.channel.push.url", push.url());
        p.put("notifier.channel.push.token", "");
        p.put("notifier.channel.push.fallback.url", pushFallback.url());
        p.put("notifier.channel.line.url", line.url());
        p.put("notifier.channel.line.token", EmbeddedLineApi.TOKEN);
        p.put("notifier.http.port", String.valueOf(httpPort));
        // a 503 is retried within a second or two instead of the production backoff
        p.put("notifier.delivery.poll-millis", "250");
        p.put("notifier.delivery.retry-base-millis", "500");
        p.put("notifier.delivery.retry-max-millis", "4000");
        return p;
    }

    String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    int smtpPort() {
        return smtp.port();
    }

    String pushUrl() {
        return push.url();
    }

    String pushFallbackUrl() {
        return pushFallback.url();
    }

    String lineUrl() {
        return line.url();
    }

    /**
     * Reads the state through the application's own beans: its pool, and the peerInbox it was given.
     * Closed with the run, before Kafka.
     */
    WorkProbe probe() throws Exception {
        Registry registry = application.getCamelContext().getRegistry();
        return closeLater(new WorkProbe(kafka.bootstrapServers(),
                registry.lookupByNameAndType("dataSource", DataSource.class),
                registry.lookupByNameAndType("peerInbox", PeerInbox.class), pushFallback, smtp::bouncesPending));
    }

    /** Closes {@code part} with the others; at once if they are closed already (Ctrl-C while starting). */
    private synchronized <T extends AutoCloseable> T closeLater(T part) throws Exception {
        if (closed) {
            part.close();
            throw new IllegalStateException("the demo is shutting down");
        }
        toClose.push(part);
        return part;
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Stops the application, the peers and Kafka, and deletes the temporary directory. One caller does
     * it (the command, or the shutdown hook on Ctrl-C); another waits until it is done.
     */
    @Override
    public synchronized void close() {
        closed = true;
        while (!toClose.isEmpty()) {
            try {
                toClose.pop().close();
            } catch (Exception e) {
                System.err.println("demo: while shutting down: " + e);
            }
        }
    }
}
