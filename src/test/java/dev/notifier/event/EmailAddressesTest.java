package dev.notifier.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class EmailAddressesTest {

    static Stream<HostileAddresses> corpus() {
        return HostileAddresses.corpus().stream();
    }

    @Nested
    class WithoutSmtpUtf8 {

        @ParameterizedTest(name = "{0}")
        @MethodSource("dev.notifier.event.EmailAddressesTest#corpus")
        void shouldAcceptOnlyWellFormedAsciiAddressesAndThoseUnchanged(HostileAddresses sample) throws Exception {
            if (sample.ascii() && sample.wellFormed()) {
                assertThat(EmailAddresses.requireDeliverable(sample.address(), false)).isEqualTo(sample.address());
            } else {
                assertThat(reasonFor(sample.address(), false)).startsWith("recipient.email: ");
            }
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("dev.notifier.event.EmailAddressesTest#corpus")
        void shouldSayThatAWellFormedNonAsciiAddressNeedsSmtpUtf8(HostileAddresses sample) {
            if (!sample.ascii() && sample.wellFormed()) {
                assertThat(reasonFor(sample.address(), false))
                        .endsWith("has non-ASCII characters: it can be delivered exactly as written only over SMTPUTF8,"
                                + " which is off (notifier.smtp.utf8)");
            }
        }
    }

    @Nested
    class WithSmtpUtf8 {

        @ParameterizedTest(name = "{0}")
        @MethodSource("dev.notifier.event.EmailAddressesTest#corpus")
        void shouldAcceptEveryWellFormedAddressUnchanged(HostileAddresses sample) throws Exception {
            if (sample.wellFormed()) {
                assertThat(EmailAddresses.requireDeliverable(sample.address(), true)).isEqualTo(sample.address());
            } else {
                assertThat(reasonFor(sample.address(), true)).startsWith("recipient.email: ");
            }
        }
    }

    /** A reason goes to a DLQ header and a log: one line, the address masked, never all of it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void shouldGiveAOneLineReasonThatNeverQuotesTheWholeAddress(HostileAddresses sample) {
        if (sample.wellFormed() && sample.ascii()) {
            return;
        }
        String reason = reasonFor(sample.address(), false);

        assertThat(reason).doesNotContain("\n", "\r", "\u0000");
        if (sample.address().length() > 3) {
            assertThat(reason).doesNotContain(sample.address());
        }
    }

    private static String reasonFor(String address, boolean utf8) {
        InvalidEventException rejected = catchThrowableOfType(InvalidEventException.class,
                () -> EmailAddresses.requireDeliverable(address, utf8));
        assertThat(rejected).as("rejected: %s", address).isNotNull();
        return rejected.getMessage();
    }
}
