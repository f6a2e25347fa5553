package dev.notifier.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The command line of {@code demo}. */
record DemoOptions(Map<DemoPort, Integer> ports, boolean exitWhenDone, Duration settleTimeout,
                   Optional<Path> events, boolean help) {

    static final Duration DEFAULT_SETTLE_TIMEOUT = Duration.ofSeconds(120);

    static String usage() {
        StringBuilder text = new StringBuilder("""
                usage: java -jar notifier-demo.jar [options]        (built and run by: mvn -q -Pdemo package)

                Runs Notifier's real routes on embedded parts (a Kafka broker, a PostgreSQL server, an
                SMTP server, a push gateway and a LINE Messaging API), publishes examples/events.jsonl
                and prints what happened once the work has settled. Without --exit-when-done it keeps running for exploring
                and for more events; Ctrl-C stops it and deletes its temporary files.

                options:
                  --exit-when-done        exit after the summary: 0 when the work settled, 1 when it did
                                          not within the settle timeout
                  --settle-timeout <s>    how long to wait for the work to settle [120]
                  --events <file>         the events to publish, one JSON event per line
                                          [examples/events.jsonl, else the copy in the jar]
                """);
        for (DemoPort port : DemoPort.values()) {
            text.append(String.format("  %-22s  port of %s [%d]%n", port.option + " <port>", port.purpose, port.defaultPort));
        }
        text.append("  --help                  this text\n\nA busy port ends the demo with exit code 2.\n");
        return text.toString();
    }

    /** @throws IllegalArgumentException with a message for the user when the arguments make no sense */
    static DemoOptions parse(List<String> args) {
        Map<DemoPort, Integer> ports = new EnumMap<>(DemoPort.class);
        for (DemoPort port : DemoPort.values()) {
            ports.put(port, port.defaultPort);
        }
        boolean exitWhenDone = false;
        boolean help = false;
        Duration settleTimeout = DEFAULT_SETTLE_TIMEOUT;
        Optional<Path> events = Optional.empty();
        Deque<String> rest = new ArrayDeque<>(args);
        while (!rest.isEmpty()) {
            String arg = rest.poll();
            switch (arg) {
                case "--help", "-h" -> help = true;
                case "--exit-when-done" -> exitWhenDone = true;
                case "--settle-timeout" -> settleTimeout = Duration.ofSeconds(number(arg, rest, 1, 3600));
                case "--events" -> events = Optional.of(Path.of(value(arg, rest)));
                default -> ports.put(portOption(arg), number(arg, rest, 1, 65535));
            }
        }
        Set<Integer> distinct = new HashSet<>(ports.values());
        if (distinct.size() < ports.size()) {
            throw new IllegalArgumentException("the ports must differ: " + ports);
        }
        return new DemoOptions(Map.copyOf(ports), exitWhenDone, settleTimeout, events, help);
    }

    int port(DemoPort port) {
        return ports.get(port);
    }

    private static DemoPort portOption(String arg) {
        for (DemoPort port : DemoPort.values()) {
            if (port.option.equals(arg)) {
                return port;
            }
        }
        throw new IllegalArgumentException("unknown option " + arg);
    }

    private static int number(String option, Deque<String> rest, int min, int max) {
        String text = value(option, rest);
        try {
            int value = Integer.parseInt(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " takes a number from " + min + " to " + max + ", not '" + text + "'");
    }

    private static String value(String option, Deque<String> rest) {
        if (rest.isEmpty() || rest.peek().startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return rest.poll();
    }
}
