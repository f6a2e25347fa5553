package dev.notifier.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code demo} as a user runs it, in this JVM: the project's routes, config and
 * examples/events.jsonl, on free ports. The summary it prints must add up to what the example file
 * implies, worked out from the file here.
 */
class DemoTest {

    private static final Path EXAMPLES = Path.of("examples/events.jsonl");

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final DemoCommand demo = new DemoCommand(print(out), print(err));

    @Test
    void shouldSettleWithTheNumbersTheExampleEventsImply() throws Exception {
        ExampleEvents expected = ExampleEvents.read(EXAMPLES);
        long emails = expected.notifications("EMAIL");
        long pushes = expected.notifications("PUSH");
        long rejectedPushes = expected.unregisteredPushes();
        long lines = expected.notifications("LINE");
        long blocked = expected.blockedLineUsers();
        long bounced = expected.missingMailboxes();

        int exitCode = demo.run(withFreePorts("--exit-when-done", "--settle-timeout", "120"));

        assertThat(exitCode).as(text(err)).isZero();
        String summary = text(out);
        assertThat(number(summary, "records consumed (committed offsets)")).isEqualTo(expected.records());
        assertThat(number(summary, "events recorded in the inbox")).isEqualTo(expected.distinctEvents().size());
        assertThat(number(summary, "duplicates dropped by the inbox")).isEqualTo(expected.duplicates());
        assertThat(number(summary, "records dead-lettered (DLQ)")).isEqualTo(expected.deadLettered());
        Map<String, long[]> rows = notificationRows(summary);
        assertThat(rows).containsOnlyKeys("EMAIL SENT", "EMAIL BOUNCED", "PUSH SENT", "PUSH FAILED", "LINE SENT", "LINE FAILED");
        assertThat(rows.get("EMAIL SENT")).as("EMAIL SENT rows, attempts").containsExactly(emails - bounced, emails - bounced);
        // accepted by the SMTP server, then reported by it as having no mailbox, read from the bounce mailbox
        assertThat(rows.get("EMAIL BOUNCED")).as("EMAIL BOUNCED rows, attempts").containsExactly(bounced, bounced);
        assertThat(rows.get("PUSH SENT")[0]).isEqualTo(pushes - rejectedPushes);
        assertThat(rows.get("PUSH FAILED")[0]).isEqualTo(rejectedPushes);
        assertThat(rows.get("PUSH SENT")[1] + rows.get("PUSH FAILED")[1])
                .as("push attempts: one each; the primary's 503 to every %dth new key fails over within the attempt",
                        EmbeddedPushGateway.BUSY_EVERY)
                .isEqualTo(pushes);
        assertThat(number(summary, "emails received by the SMTP server")).isEqualTo(emails);
        assertThat(number(summary, "pushes accepted by the push gateways")).isEqualTo(pushes - rejectedPushes);
        // every 503'd key went to the fallback; one of them may have been an unregistered token (404 there too)
        assertThat(number(summary, "of them by the fallback (failover)")).as("pushes failed over")
                .isBetween(pushes / EmbeddedPushGateway.BUSY_EVERY - rejectedPushes, pushes / EmbeddedPushGateway.BUSY_EVERY);
        assertThat(rows.get("LINE SENT")[0]).isEqualTo(lines - blocked);
        assertThat(rows.get("LINE FAILED")).as("LINE FAILED rows, attempts").containsExactly(blocked, blocked);
        assertThat(rows.get("LINE SENT")[1])
                .as("LINE attempts: one each, plus one after every %dth accepted key's lost answer, answered 409 (delivered)",
                        EmbeddedLineApi.LOST_ANSWER_EVERY)
                .isEqualTo(lines - blocked + (lines - blocked) / EmbeddedLineApi.LOST_ANSWER_EVERY);
        // LINE delivered each accepted retry key once, also the one Notifier sent twice
        assertThat(number(summary, "LINE messages accepted by the LINE API")).isEqualTo(lines - blocked);
    }

    @Test
    void exampleEventsShouldShowEveryCaseTheReadmePromises() throws IOException {
        ExampleEvents examples = ExampleEvents.read(EXAMPLES);

        assertThat(examples.unparseable()).as("poison records").isPositive();
        assertThat(examples.duplicates()).as("duplicates").isGreaterThanOrEqualTo(2);
        assertThat(examples.conflicts()).as("an eventId reused with different content").isPositive();
        assertThat(examples.unregisteredPushes()).as("pushes the gateway rejects for good").isPositive();
        assertThat(examples.notifications("LINE") - examples.blockedLineUsers()).as("LINE messages, one with a lost answer")
                .isGreaterThanOrEqualTo(EmbeddedLineApi.LOST_ANSWER_EVERY);
        assertThat(examples.blockedLineUsers()).as("LINE users who blocked the bot").isPositive();
        assertThat(examples.missingMailboxes()).as("an email to a mailbox that does not exist").isEqualTo(1);
        assertThat(examples.distinctEvents()).extracting(e -> e.path("recipient").path("locale").asText())
                .anyMatch(locale -> locale.startsWith("th")).anyMatch(locale -> !locale.startsWith("th"));
    }

    @ParameterizedTest
    @EnumSource(DemoPort.class)
    void shouldRefuseABusyPortWithExitCodeTwoNamingIt(DemoPort port) throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<String> args = withFreePorts("--exit-when-done");
            args.addAll(List.of(port.option, String.valueOf(busy.getLocalPort())));

            assertThat(demo.run(args)).isEqualTo(2);

            assertThat(text(err)).contains("port " + busy.getLocalPort(), port.purpose, port.option);
        }
    }

    @Test
    void shouldPrintUsageOnHelpAndRefuseAnUnknownOption() throws Exception {
        assertThat(demo.run(List.of("--help"))).isZero();
        assertThat(text(out)).contains("--exit-when-done", "--kafka-port", "--smtp-port", "--push-port", "--line-port", "--http-port");

        assertThat(demo.run(List.of("--kafka-port", "none"))).isEqualTo(2);
        assertThat(demo.run(List.of("--fast"))).isEqualTo(2);
        assertThat(text(err)).contains("--kafka-port takes a number", "unknown option --fast");
    }

    /** {@code options}, then every port option with a port nobody listens on (later options win). */
    private static List<String> withFreePorts(String... options) throws IOException {
        List<String> args = new ArrayList<>(List.of(options));
        args.addAll(FreePorts.demoOptions());
        return args;
    }

    private static long number(String summary, String label) {
        Matcher matcher = Pattern.compile("^\\s+" + Pattern.quote(label) + "\\s+(\\d+)$", Pattern.MULTILINE).matcher(summary);
        assertThat(matcher.find()).as("'%s' in the summary:%n%s", label, summary).isTrue();
        return Long.parseLong(matcher.group(1));
    }

    /** "CHANNEL STATUS" → {rows, attempts}. */
    private static Map<String, long[]> notificationRows(String summary) {
        Matcher matcher = Pattern.compile("^\\s+(EMAIL|PUSH|LINE)\\s+([A-Z]+)\\s+(\\d+)\\s+(\\d+)$", Pattern.MULTILINE).matcher(summary);
        Map<String, long[]> rows = new HashMap<>();
        while (matcher.find()) {
            rows.put(matcher.group(1) + " " + matcher.group(2),
                    new long[] {Long.parseLong(matcher.group(3)), Long.parseLong(matcher.group(4))});
        }
        return rows;
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
