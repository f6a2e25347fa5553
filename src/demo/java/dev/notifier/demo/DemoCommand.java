package dev.notifier.demo;

import dev.notifier.demo.SampleProducer.Events;
import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.Optional;

/**
 * The demo: starts the embedded parts and the application, publishes the example events and
 * reports what became of them once the work has settled. With {@code --exit-when-done} it then
 * exits (0; 1 when the work did not settle in time); otherwise it keeps running and reports again
 * whenever new work settles. A busy port or a bad option is exit code 2.
 */
public final class DemoCommand {

    private static final Duration POLL = Duration.ofMillis(250);

    private final PrintStream out;
    private final PrintStream err;

    public DemoCommand() {
        this(System.out, System.err);
    }

    public DemoCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs the demo with its command line; the return value is the exit code. */
    public int run(List<String> args) throws Exception {
        DemoOptions options;
        try {
            options = DemoOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("demo: " + e.getMessage() + "\n\n" + DemoOptions.usage());
            return 2;
        }
        if (options.help()) {
            out.print(DemoOptions.usage());
            return 0;
        }
        Events events;
        try {
            events = SampleProducer.load(options.events());
        } catch (IOException e) {
            err.println("demo: cannot read the events to publish: " + e);
            return 2;
        }
        for (DemoPort port : DemoPort.values()) {
            if (!DemoPort.isFree(options.port(port))) {
                err.println(port.busyMessage(options.port(port)));
                return 2;
            }
        }
        return run(options, events);
    }

    private int run(DemoOptions options, Events events) throws Exception {
        long started = System.nanoTime();
        DemoRun run = new DemoRun();
        // Ctrl-C, also while starting: stop the application and Kafka, delete the temporary directory
        Thread cleanUp = new Thread(run::close, "notifier-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(cleanUp);
        try (run) {
            try {
                run.start(options);
            } catch (Exception e) {
                Optional<BindException> portTaken = bindException(e);
                if (portTaken.isEmpty()) {
                    throw e;
                }
                err.println("demo: a port was taken while the demo started (" + e.getMessage() + ", "
                        + portTaken.get().getMessage() + "); choose others with " + DemoPort.optionNames());
                return 2;
            }
            out.printf("%ndemo: Kafka, PostgreSQL, SMTP, the push gateway, LINE and Notifier started in %.1f s%n", seconds(started));
            SampleProducer.publish(run.bootstrapServers(), DemoRun.TOPIC, events.lines());
            out.printf("demo: published %d records from %s to %s; waiting for the work to settle%n",
                    events.lines().size(), events.source(), DemoRun.TOPIC);
            long published = System.nanoTime();
            WorkProbe probe = run.probe();
            return options.exitWhenDone()
                    ? reportWhenSettled(probe, published, options.settleTimeout())
                    : reportAsWorkSettles(run, probe, published, options);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanUp);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
        }
    }

    private static Optional<BindException> bindException(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BindException bind) {
                return Optional.of(bind);
            }
        }
        return Optional.empty();
    }

    private int reportWhenSettled(WorkProbe probe, long published, Duration timeout) throws InterruptedException {
        long deadline = published + timeout.toNanos();
        String lastSeen = "nothing observed yet";
        while (System.nanoTime() < deadline) {
            try {
                WorkSummary summary = probe.observe();
                if (summary.settled()) {
                    out.print(summary.table(settledAfter(published)));
                    return 0;
                }
                lastSeen = summary.progress();
            } catch (Exception e) {
                lastSeen = "could not read the state: " + e;
            }
            Thread.sleep(POLL.toMillis());
        }
        err.println("demo: the work did not settle within " + timeout.toSeconds() + " s (--settle-timeout): " + lastSeen);
        return 1;
    }

    private int reportAsWorkSettles(DemoRun run, WorkProbe probe, long published, DemoOptions options)
            throws InterruptedException {
        WorkSummary reported = null;
        while (!run.isClosed()) {
            try {
                WorkSummary summary = probe.observe();
                if (summary.settled() && !summary.equals(reported)) {
                    out.print(summary.table(reported == null ? settledAfter(published)
                            : "Notifier demo: the work settled again at " + LocalTime.now().withNano(0)));
                    out.print(reported == null ? howToExplore(run, options) : "");
                    reported = summary;
                }
            } catch (Exception e) {
                // shutting down (the probe's clients are closed under it), or a passing hiccup: look again
            }
            Thread.sleep(POLL.toMillis());
        }
        return 0;
    }

    private static String howToExplore(DemoRun run, DemoOptions options) {
        int httpPort = options.port(DemoPort.HTTP);
        return "\nThe demo keeps running; Ctrl-C stops it and deletes its temporary files.\n"
                + "  Kafka bootstrap   " + run.bootstrapServers() + "   topic " + DemoRun.TOPIC + ", DLQ "
                + DemoRun.DLQ_TOPIC + ", group " + DemoRun.GROUP + "\n"
                + "  SMTP server       127.0.0.1:" + run.smtpPort() + "   push gateway " + run.pushUrl() + "\n"
                + "  push fallback     " + run.pushFallbackUrl() + "   LINE API " + run.lineUrl() + "\n"
                + (DemoPort.isFree(httpPort) ? "" : "  status page       http://127.0.0.1:" + httpPort + "/\n")
                + "Send more events with any Kafka producer (key = transferId), e.g. from a Kafka distribution:\n"
                + "  bin/kafka-console-producer.sh --bootstrap-server " + run.bootstrapServers() + " --topic "
                + DemoRun.TOPIC + " < examples/events.jsonl\n"
                + "(the same events again: the inbox drops every one). A new summary follows whenever the work settles.\n";
    }

    private static String settledAfter(long published) {
        return String.format("Notifier demo: the work settled %.1f s after the events were published", seconds(published));
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
