package dev.notifier.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.notifier.support.LogCapture;
import dev.notifier.support.Peers;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.RunningNotifier;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Credentials never travel in clear to another host: the real service, on real parts, refuses to start
 * for each way a credential could (SMTP AUTH without TLS, a push, LINE or added channel's token over
 * http://), names the variable, and starts when the host is this machine, when the channel is not in use,
 * or when NOTIFIER_ALLOW_CLEARTEXT=true says so, with a WARN. A database elsewhere without TLS is a WARN.
 */
class CleartextCredentialsStartTest extends PipelineTestBase {

    /** TEST-NET-1 (RFC 5737): not this machine, and never resolved through DNS. Nothing is sent there. */
    private static final String ELSEWHERE = "192.0.2.10";
    private static final UnaryOperator<String> NO_VARIABLES = name -> null;

    static Stream<Arguments> credentialsInClear() {
        return Stream.of(
                Arguments.of("SMTP AUTH without TLS", Map.of("notifier.smtp.host", ELSEWHERE, "notifier.smtp.user", "ops",
                        "notifier.smtp.password", "smtp-secret"), List.of("SMTP AUTH would send NOTIFIER_SMTP_USER and"
                        + " NOTIFIER_SMTP_PASSWORD in clear to " + ELSEWHERE + " (NOTIFIER_SMTP_HOST)", "NOTIFIER_SMTP_TLS is none")),
                Arguments.of("SMTP password alone", Map.of("notifier.smtp.host", ELSEWHERE, "notifier.smtp.password", "smtp-secret"),
                        List.of("NOTIFIER_SMTP_PASSWORD in clear to " + ELSEWHERE)),
                Arguments.of("push token over http", Map.of("notifier.channel.push.url", "http://" + ELSEWHERE + ":8088/push",
                        "notifier.channel.push.token", "push-secret"), List.of("NOTIFIER_PUSH_TOKEN would go in clear over http:// to "
                        + ELSEWHERE + " (NOTIFIER_PUSH_URL)")),
                Arguments.of("push fallback's own token over http", Map.of("notifier.channel.push.fallback.url",
                        "http://" + ELSEWHERE + ":8088/push", "notifier.channel.push.fallback.token", "push-secret"),
                        List.of("NOTIFIER_PUSH_FALLBACK_TOKEN would go in clear over http:// to " + ELSEWHERE
                                + " (NOTIFIER_PUSH_FALLBACK_URL)")),
                Arguments.of("push token, which the fallback takes, over http", Map.of("notifier.channel.push.fallback.url",
                        "http://" + ELSEWHERE + ":8088/push", "notifier.channel.push.token", "push-secret"),
                        List.of("NOTIFIER_PUSH_TOKEN would go in clear over http:// to " + ELSEWHERE
                                + " (NOTIFIER_PUSH_FALLBACK_URL)")),
                Arguments.of("LINE token over http", Map.of("notifier.channel.line.url", "http://" + ELSEWHERE + "/v2/bot/message/push"),
                        List.of("NOTIFIER_LINE_TOKEN would go in clear over http:// to " + ELSEWHERE + " (NOTIFIER_LINE_URL)")),
                Arguments.of("added channel's token over http", fourthChannel("http://" + ELSEWHERE + "/sms"),
                        List.of("notifier.channel.sms.token would go in clear over http:// to " + ELSEWHERE
                                + " (the URL in routes/send-sms.camel.yaml)")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("credentialsInClear")
    void shouldRefuseToStartNamingTheVariable(String description, Map<String, String> change, List<String> named) {
        Map<String, String> settings = settings();
        settings.putAll(change);

        assertThatThrownBy(() -> start(settings)).hasStackTraceContaining("Refusing to start: ")
                .satisfies(refusal -> named.forEach(text -> assertThat(refusal).hasStackTraceContaining(text)))
                .hasStackTraceContaining("NOTIFIER_ALLOW_CLEARTEXT=true")
                .satisfies(refusal -> assertThat(stackOf(refusal)).doesNotContain("smtp-secret", "push-secret", Peers.LINE_TOKEN));
    }

    @Test
    void shouldStartWithEachOfThemWhenNotifierAllowCleartextSaysSoWarningOfEach() throws Exception {
        Map<String, String> settings = settings();
        credentialsInClear().forEach(arguments -> {
            @SuppressWarnings("unchecked")
            Map<String, String> change = (Map<String, String>) arguments.get()[1];
            settings.putAll(change);
        });
        int mark = LogCapture.mark();

        notifier = RunningNotifier.start(settings, name -> name.equals("NOTIFIER_ALLOW_CLEARTEXT") ? "true" : null);

        List<String> warnings = LogCapture.entriesSince(mark).stream().filter(e -> e.level() == Level.WARN)
                .map(LogCapture.Entry::line).filter(line -> line.endsWith("(allowed by NOTIFIER_ALLOW_CLEARTEXT=true)")).toList();
        assertThat(warnings).hasSize(5).anySatisfy(line -> assertThat(line).startsWith("SMTP AUTH would send"))
                .anySatisfy(line -> assertThat(line).startsWith("NOTIFIER_PUSH_TOKEN"))
                .anySatisfy(line -> assertThat(line).startsWith("NOTIFIER_PUSH_FALLBACK_TOKEN"))
                .anySatisfy(line -> assertThat(line).startsWith("NOTIFIER_LINE_TOKEN"))
                .anySatisfy(line -> assertThat(line).startsWith("notifier.channel.sms.token"));
        assertThat(notifier.context().getRoute("consume-events")).isNotNull();
    }

    /** Credentials to this machine (the peers listen on 127.0.0.1), by any of its names, go as they are. */
    @Test
    void shouldStartWhenEveryCredentialGoesToThisMachine() throws Exception {
        Map<String, String> settings = settings();
        settings.putAll(Map.of("notifier.smtp.host", "localhost", "notifier.smtp.user", "ops", "notifier.smtp.password", "pw",
                "notifier.channel.push.token", "push-secret"));
        settings.putAll(fourthChannel("http://[::1]:1/sms"));
        int mark = LogCapture.mark();

        start(settings);

        assertThat(notifier.context().getRoute("send-sms")).isNotNull();
        assertThat(LogCapture.entriesSince(mark)).noneMatch(e -> e.line().contains("in clear"));
    }

    /** A bank without email is not refused for SMTP settings it never uses (ChannelsInUseTest's deployment). */
    @Test
    void shouldIgnoreTheCredentialsOfAChannelNotInUse() throws Exception {
        Map<String, String> settings = settings();
        settings.putAll(Map.of("notifier.channels", "PUSH,LINE", "notifier.smtp.host", ELSEWHERE, "notifier.smtp.user", "ops",
                "notifier.smtp.password", "pw"));

        start(settings);

        assertThat(notifier.context().getRoute("send-email")).isNull();
    }

    /** The database's first host is this machine's PostgreSQL, so the service runs; its second is elsewhere. */
    @Test
    void shouldWarnOnceWhenTheDatabaseUrlLeavesThisMachineWithoutTls() throws Exception {
        Map<String, String> settings = settings();
        settings.put("notifier.db.url", db.url().replaceFirst("^(jdbc:postgresql://[^/]+)/", "$1," + ELSEWHERE + ":5432/"));
        int mark = LogCapture.mark();

        start(settings);

        assertThat(LogCapture.entriesSince(mark).stream().filter(e -> e.level() == Level.WARN).map(LogCapture.Entry::line)
                .filter(line -> line.startsWith("NOTIFIER_DB_URL points to"))).singleElement().asString()
                .startsWith("NOTIFIER_DB_URL points to " + ELSEWHERE + ", which is not this machine, with sslmode prefer:")
                .contains("sslmode=verify-full");
    }

    /** Without the machine's NOTIFIER_* variables: a NOTIFIER_ALLOW_CLEARTEXT there must not decide a test. */
    private void start(Map<String, String> settings) throws Exception {
        notifier = RunningNotifier.start(settings, NO_VARIABLES);
    }

    private static Map<String, String> fourthChannel(String url) {
        return Map.of("notifier.routes-location", "file:routes/*.camel.yaml,classpath:fourth-channel/routes/*.camel.yaml",
                "notifier.templates.location", "file:templates,classpath:fourth-channel/templates",
                "notifier.channels", "EMAIL,PUSH,LINE,SMS", "notifier.channel.sms.address", "phone",
                "notifier.channel.sms.token", "sms-secret", "notifier.sms.url", url);
    }

    private static String stackOf(Throwable thrown) {
        java.io.StringWriter out = new java.io.StringWriter();
        thrown.printStackTrace(new java.io.PrintWriter(out));
        return out.toString();
    }
}
