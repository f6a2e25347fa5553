package dev.notifier.demo;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.stream.Collectors;

/** A port the demo listens on: the option that sets it, its default, and what it is for. */
enum DemoPort {
    KAFKA("--kafka-port", 9092, "the embedded Kafka broker"),
    SMTP("--smtp-port", 2525, "the embedded SMTP server"),
    IMAP("--imap-port", 1143, "the embedded IMAP server's bounce mailbox (NOTIFIER_BOUNCE_IMAP_URL)"),
    PUSH("--push-port", 8088, "the embedded push gateway"),
    PUSH_FALLBACK("--push-fallback-port", 8090, "the embedded fallback push gateway (notifier.channel.push.fallback.url)"),
    LINE("--line-port", 8089, "the embedded LINE Messaging API"),
    HTTP("--http-port", 8080, "Notifier's management HTTP server (notifier.http.port)");

    final String option;
    final int defaultPort;
    final String purpose;

    DemoPort(String option, int defaultPort, String purpose) {
        this.option = option;
        this.defaultPort = defaultPort;
        this.purpose = purpose;
    }

    /**
     * Whether nothing listens on {@code port}. The wildcard address is tried, so a listener on any
     * local address, loopback included, makes the port busy.
     */
    static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static String optionNames() {
        return Arrays.stream(values()).map(port -> port.option).collect(Collectors.joining(", "));
    }

    String busyMessage(int port) {
        return "demo: port " + port + " is already in use; it is for " + purpose + ". Choose another with "
                + option + " <port>.";
    }
}
