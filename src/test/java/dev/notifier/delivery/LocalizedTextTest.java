package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.event.TransferEvent;
import dev.notifier.support.ContractEvent;
import java.time.ZoneId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class LocalizedTextTest {

    private final LocalizedText text = new LocalizedText(ZoneId.of("Asia/Bangkok"));

    @Nested
    class Thai {

        @ParameterizedTest(name = "locale {0}")
        @ValueSource(strings = {"th-TH", "th", "TH-th"})
        void shouldWriteTheTitleInThaiWithBahtSign(String locale) {
            assertThat(text.title(event(locale))).isEqualTo("โอนเงินสำเร็จ ฿1,500.00");
        }

        @Test
        void shouldAddressTheRecipientByNameInTheEmailBody() {
            assertThat(text.emailBody(event("th-TH")))
                    .startsWith("เรียน คุณสมชาย ใจดี\n")
                    .contains("TRX-000123", "฿1,500.00", "2 ธ.ค. 2026 17:15 (UTC+07:00)");
        }
    }

    @Nested
    class English {

        @ParameterizedTest(name = "locale {0}")
        @NullSource
        @ValueSource(strings = {"en-GB", "en", "fr-FR", ""})
        void shouldWriteTheTitleInEnglishWithCurrencyCode(String locale) {
            assertThat(text.title(event(locale))).isEqualTo("Transfer completed: THB 1,500.00");
        }

        @Test
        void shouldStateTransferAndTimeInTheRecipientsZone() {
            assertThat(text.emailBody(event("en-GB")))
                    .startsWith("Dear สมชาย ใจดี,\n")
                    .contains("Your transfer TRX-000123 of THB 1,500.00 was completed on 2 Dec 2026 17:15 (UTC+07:00).");
        }

        @Test
        void shouldShowTheCurrencysOwnFractionDigits() {
            TransferEvent event = ContractEvent.event().locale("en-GB").amount("1234567.5").build();

            assertThat(text.amount(event)).isEqualTo("THB 1,234,567.50");
        }
    }

    @Nested
    class RecipientName {

        @ParameterizedTest(name = "locale {0}")
        @ValueSource(strings = {"th-TH", "en-GB"})
        void shouldKeepControlCharactersOutOfTheEmailBody(String locale) {
            String name = "สมชาย\r\nBcc: evil@example.com\u0000\t\u001B[31m\u007F\u0085ใจดี";
            TransferEvent event = ContractEvent.event().locale(locale).name(name).build();

            String body = text.emailBody(event);

            assertThat(body.replace("\n", "").codePoints().filter(Character::isISOControl)).isEmpty();
            assertThat(body).contains("สมชาย Bcc: evil@example.com [31m ใจดี");
        }

        @ParameterizedTest(name = "locale {0}")
        @ValueSource(strings = {"th-TH", "en-GB"})
        void shouldFallBackToAGenericSalutationWithoutAName(String locale) {
            String body = text.emailBody(ContractEvent.event().locale(locale).name(" ").build());

            assertThat(body).startsWith(locale.startsWith("th") ? "เรียน คุณลูกค้า\n" : "Dear customer,\n");
        }
    }

    private static TransferEvent event(String locale) {
        return ContractEvent.event().locale(locale).build();
    }
}
