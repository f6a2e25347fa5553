package dev.notifier.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The jar's first argument: help, version and typos answer with Notifier's usage; nothing starts the service by mistake. */
class CommandsTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Optional<Integer> run(String... args) throws Exception {
        return Commands.runIfCommand(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void shouldRunTheServiceWithoutArguments() throws Exception {
        assertThat(run()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h", "help"})
    void shouldPrintUsageForHelp(String help) throws Exception {
        assertThat(run(help)).contains(0);
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("usage: java -jar notifier.jar")
                .contains("status ", "resend ", "dlq ", "inbox ", "verify ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--version", "-V", "version"})
    void shouldPrintTheVersions(String version) throws Exception {
        assertThat(run(version)).contains(0);
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("notifier ")
                .containsPattern("Apache Camel 4\\.\\d+\\.\\d+").contains("Java " + Runtime.version());
    }

    @Test
    void shouldRefuseAMistypedCommandAndSuggestTheNearestOne() throws Exception {
        assertThat(run("stauts", "x")).contains(Commands.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("notifier: unknown command 'stauts'; did you mean 'status'?")
                .contains("usage: java -jar notifier.jar");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"--halp", "-x", "run", "serve"})
    void shouldRefuseUnknownWordsAndOptions(String word) throws Exception {
        assertThat(run(word)).contains(Commands.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("notifier: unknown ").contains("'" + word + "'")
                .contains("usage: java -jar notifier.jar");
    }

    @Test
    void shouldSayWhereTheDemoIsWhenItIsNotBesideTheJar() throws Exception {
        // run from classes, as here, there is no jar and no notifier-demo.jar beside it
        assertThat(run("demo", "--exit-when-done")).contains(Commands.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("notifier-demo.jar", "demo-lib/", "mvn -q -Pdemo package");
    }

    @Test
    void shouldMeasureEditDistance() {
        assertThat(Commands.distance("status", "stauts")).isEqualTo(2);
        assertThat(Commands.distance("dlq", "dlq")).isZero();
        assertThat(Commands.distance("", "abc")).isEqualTo(3);
        assertThat(Commands.distance("inbox", "verify")).isGreaterThan(2);
    }
}
