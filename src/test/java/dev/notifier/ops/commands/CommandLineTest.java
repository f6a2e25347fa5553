package dev.notifier.ops.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class CommandLineTest {

    private static CommandLine parse(String... args) throws UsageException {
        return CommandLine.parse(List.of(args), Set.of("--failed"), Set.of("--limit", "--since"));
    }

    @Nested
    class Options {

        @Test
        void shouldReadFlagsAndValuesInEitherSpelling() throws UsageException {
            CommandLine line = parse("--failed", "--limit", "10", "--since=2026-12-02T00:00:00Z");

            assertThat(line.flag("--failed")).isTrue();
            assertThat(line.value("--limit", Integer::parseInt)).contains(10);
            assertThat(line.value("--since", s -> s)).contains("2026-12-02T00:00:00Z");
        }

        @Test
        void shouldLeaveAbsentOptionsEmpty() throws UsageException {
            CommandLine line = parse();

            assertThat(line.flag("--failed")).isFalse();
            assertThat(line.value("--limit", Integer::parseInt)).isEmpty();
        }

        @Test
        void shouldRejectAnUnknownOption() {
            assertThatThrownBy(() -> parse("--failed", "--force")).isInstanceOf(UsageException.class)
                    .hasMessage("unknown option --force");
        }

        @Test
        void shouldRejectAValuedOptionWithoutItsValue() {
            assertThatThrownBy(() -> parse("--limit")).hasMessage("--limit needs a value");
            assertThatThrownBy(() -> parse("--limit=")).hasMessage("--limit needs a value");
        }

        @Test
        void shouldRejectAFlagGivenAValueAndAnOptionGivenTwice() {
            assertThatThrownBy(() -> parse("--failed=yes")).hasMessage("--failed takes no value");
            assertThatThrownBy(() -> parse("--limit", "1", "--limit", "2")).hasMessage("--limit given twice");
        }

        @Test
        void shouldTurnAValueTheParserRejectsIntoAUsageError() throws UsageException {
            CommandLine line = parse("--limit", "ten");

            assertThatThrownBy(() -> line.value("--limit", Integer::parseInt)).isInstanceOf(UsageException.class)
                    .hasMessage("--limit: For input string: \"ten\"");
        }

        @Test
        void shouldNameARequiredOptionThatIsMissing() throws UsageException {
            CommandLine line = parse();

            assertThatThrownBy(() -> line.required("--since", s -> s)).hasMessage("--since is required");
        }
    }

    @Nested
    class Positionals {

        @Test
        void shouldTakeExactlyOne() throws UsageException {
            assertThat(parse("abc", "--failed").single("<eventId>")).isEqualTo("abc");
            assertThatThrownBy(() -> parse().single("<eventId>")).hasMessage("missing <eventId>");
            assertThatThrownBy(() -> parse("a", "b").single("<eventId>")).hasMessage("unexpected argument 'b'");
        }

        @Test
        void shouldCheckTheSubcommand() throws UsageException {
            parse("replay", "--limit", "3").subcommand("replay");

            assertThatThrownBy(() -> parse("replay", "all").subcommand("replay")).hasMessage("unexpected argument 'all'");
            assertThatThrownBy(() -> parse("rewind").subcommand("replay")).hasMessage("unknown subcommand 'rewind'");
            assertThatThrownBy(() -> parse().subcommand("replay")).hasMessage("missing subcommand (replay)");
        }

        @Test
        void shouldRejectAnyWhereNoneAreTaken() {
            assertThatThrownBy(() -> parse("now").noPositionals()).hasMessage("unexpected argument 'now'");
        }
    }
}
