package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import org.apache.camel.RuntimeCamelException;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeliveryFailuresTest {

    private final DeliveryFailures failures = new DeliveryFailures();

    @Nested
    class ProviderRejections {

        @ParameterizedTest(name = "permanent={0}")
        @ValueSource(booleans = {true, false})
        void shouldFindARejectionWrappedInAnotherException(boolean permanent) {
            var rejected = new ProviderRejectedException("push gateway answered HTTP 410", permanent);

            DeliveryFailure failure = failures.classify(new RuntimeCamelException(new IllegalStateException(rejected)));

            assertThat(failure).isEqualTo(new DeliveryFailure(permanent, "push gateway answered HTTP 410"));
        }
    }

    @Nested
    class UnknownFailures {

        @Test
        void shouldTreatAnUnknownExceptionAsTransient() {
            DeliveryFailure failure = failures.classify(new IllegalStateException("boom"));

            assertThat(failure).isEqualTo(new DeliveryFailure(false, "IllegalStateException: boom"));
        }

        @Test
        void shouldNameTheRootCause() {
            var timeout = new SocketTimeoutException("Read timed out");

            DeliveryFailure failure = failures.classify(new RuntimeCamelException("send failed", timeout));

            assertThat(failure).isEqualTo(new DeliveryFailure(false, "SocketTimeoutException: Read timed out"));
        }

        @Test
        void shouldKeepTheReasonOnOneLine() {
            DeliveryFailure failure = failures.classify(new UncheckedIOException("first\r\nsecond",
                    new IOException("line one\nline two")));

            assertThat(failure.reason()).isEqualTo("IOException: line one line two");
        }
    }

    @Nested
    class SmtpFailures {

        @ParameterizedTest(name = "reply {0}")
        @ValueSource(ints = {550, 552, 554})
        void shouldTreatA5xxReplyToTheMessageAsPermanent(int code) {
            DeliveryFailure failure = failures.classify(sendFailed(code));

            assertThat(failure.permanent()).isTrue();
            assertThat(failure.reason()).startsWith("SMTP: reply " + code);
        }

        @ParameterizedTest(name = "reply {0}")
        @ValueSource(ints = {421, 451, 452})
        void shouldTreatA4xxReplyToTheMessageAsTransient(int code) {
            DeliveryFailure failure = failures.classify(sendFailed(code));

            assertThat(failure.permanent()).isFalse();
            assertThat(failure.reason()).startsWith("SMTP: reply " + code);
        }

        @Test
        void shouldTreatA550ReplyToTheRecipientAsPermanent() throws AddressException {
            assertThat(failures.classify(addressFailed(550)).permanent()).isTrue();
        }

        @Test
        void shouldTreatA451ReplyToTheRecipientAsTransient() throws AddressException {
            assertThat(failures.classify(addressFailed(451)).permanent()).isFalse();
        }

        /** How Angus reports a refused RCPT: a SendFailedException whose next exception holds the reply. */
        @Test
        void shouldReadTheReplyBehindAngusInvalidAddressesException() throws AddressException {
            var invalidAddresses = new SendFailedException("Invalid Addresses", addressFailed(550));

            DeliveryFailure failure = failures.classify(new RuntimeCamelException(invalidAddresses));

            assertThat(failure.permanent()).isTrue();
            assertThat(failure.reason()).contains("reply 550");
        }

        @Test
        void shouldTreatARefusedConnectionAsTransient() {
            var refused = new MessagingException("Couldn't connect to host, port: localhost, 25",
                    new ConnectException("Connection refused"));

            DeliveryFailure failure = failures.classify(refused);

            assertThat(failure.permanent()).isFalse();
            assertThat(failure.reason()).startsWith("SMTP: ").contains("Couldn't connect");
        }
    }

    private static SMTPSendFailedException sendFailed(int code) {
        return new SMTPSendFailedException("DATA", code, code + " 5.7.1 message refused", null, null, null, null);
    }

    private static SMTPAddressFailedException addressFailed(int code) throws AddressException {
        InternetAddress to = new InternetAddress("somchai@example.com");
        return new SMTPAddressFailedException(to, "RCPT TO:<somchai@example.com>", code, code + " mailbox unavailable");
    }
}
