package dev.notifier.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.delivery.DeliveryFailures;
import dev.notifier.delivery.ProviderRejectedException;
import dev.notifier.support.ContractEvent;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.nio.charset.StandardCharsets;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** What reaches a log line or a DLQ header about a recipient: never a whole address or a push token. */
class MaskTest {

    @Nested
    class Addresses {

        @Test
        void shouldKeepTheFirstCharacterAndTheDomain() {
            assertThat(Mask.emailsIn("to somchai@example.com and a.b+c@mail.example.co.th"))
                    .isEqualTo("to s***@example.com and a***@mail.example.co.th");
        }

        @Test
        void shouldMaskAllOfAGivenAddressThatHoldsNoAddress() {
            assertThat(Mask.address("somchai.example.com")).isEqualTo("s***");
            assertThat(Mask.address("Somchai <somchai@example.com>")).isEqualTo("Somchai <s***@example.com>");
            assertThat(Mask.address("")).isEmpty();
        }

        @Test
        void shouldKeepFourAndThreeCharactersOfAPushToken() {
            assertThat(Mask.pushToken("device-token-abc")).isEqualTo("devi…abc");
            assertThat(Mask.pushToken("short")).isEqualTo("…");
            assertThat(Mask.forChannel("PUSH", "device-token-abc")).isEqualTo("devi…abc");
            assertThat(Mask.forChannel("EMAIL", "somchai@example.com")).isEqualTo("s***@example.com");
        }

        @Test
        void shouldChangeNothingWhenMaskingTwice() {
            assertThat(Mask.address(Mask.address("somchai@example.com"))).isEqualTo("s***@example.com");
            assertThat(Mask.pushToken(Mask.pushToken("device-token-abc"))).isEqualTo("devi…abc");
            assertThat(Mask.tokenIn("to s***@example.com", null)).isEqualTo("to s***@example.com");
        }

        @Test
        void shouldMaskATokenAndAddressesAProviderEchoed() {
            assertThat(Mask.tokenIn("push gateway answered 400: unknown device token device-token-abc", "device-token-abc"))
                    .isEqualTo("push gateway answered 400: unknown device token devi…abc");
            assertThat(Mask.tokenIn("550 5.1.1 <somchai@example.com>: Recipient address rejected", null))
                    .isEqualTo("550 5.1.1 <s***@example.com>: Recipient address rejected");
        }
    }

    @Nested
    class DeadLetterReasons {

        private final EventParser parser = new EventParser(65_536);

        @Test
        void shouldQuoteAnInvalidAddressMasked() {
            String reason = reasonFor(validEventWithEmail("Somchai <somchai@example.com>"));

            assertThat(reason).isEqualTo("recipient.email: 'Somchai <s***@example.com>' is not a single bare address");
        }

        @Test
        void shouldMaskAnAddressQuotedAnywhereInAReason() {
            assertThat(new InvalidEventException("channels: unknown channel 'somchai@example.com'").getMessage())
                    .isEqualTo("channels: unknown channel 's***@example.com'");
        }

        @Test
        void shouldNotQuoteAnUnquotedValueJacksonCouldNotRead() {
            String reason = reasonFor("{\"recipient\":{\"pushToken\":devtoken12345}}");

            assertThat(reason).startsWith("not JSON: Unrecognized token of 13 characters: was expecting").doesNotContain("devtoken");
        }

        private String validEventWithEmail(String email) {
            return new String(ContractEvent.bytesWith(root -> ContractEvent.recipientOf(root).put("email", email)),
                    StandardCharsets.UTF_8);
        }

        private String reasonFor(String json) {
            try {
                parser.parse(json.getBytes(StandardCharsets.UTF_8));
                throw new AssertionError("parsed: " + json);
            } catch (InvalidEventException e) {
                return e.getMessage();
            }
        }
    }

    @Nested
    class DeliveryFailureReasons {

        private final TransferEvent event = ContractEvent.event().build();

        @Test
        void shouldMaskTheRecipientsTokenWhenTheGatewayQuotesIt() {
            var rejected = new ProviderRejectedException("push gateway answered HTTP 400: unknown token "
                    + ContractEvent.PUSH_TOKEN, true);

            assertThat(new DeliveryFailures().classify(rejected, event).reason())
                    .isEqualTo("push gateway answered HTTP 400: unknown token devi…abc");
        }

        @Test
        void shouldMaskTheRecipientsAddressWhenTheSmtpServerQuotesIt() throws AddressException {
            var refused = new SMTPAddressFailedException(new InternetAddress(ContractEvent.EMAIL), "RCPT TO",
                    550, "550 5.1.1 <" + ContractEvent.EMAIL + ">: Recipient address rejected");

            assertThat(new DeliveryFailures().classify(refused, event).reason())
                    .isEqualTo("SMTP: reply 550 5.1.1 <s***@example.com>: Recipient address rejected");
        }
    }
}
