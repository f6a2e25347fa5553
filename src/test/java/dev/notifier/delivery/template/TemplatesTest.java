package dev.notifier.delivery.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.notifier.delivery.UndeliverableException;
import dev.notifier.event.Channel;
import dev.notifier.event.TransferEvent;
import dev.notifier.support.ContractEvent;
import dev.notifier.support.TestTemplates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The shipped templates' texts, and what the engine guarantees for any template an operator writes. */
class TemplatesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Channel SMS = new Channel("SMS");

    @TempDir
    Path root;

    private final Templates shipped = TestTemplates.shipped();

    @Nested
    class ShippedTexts {

        @ParameterizedTest(name = "locale {0}")
        @ValueSource(strings = {"th-TH", "th", "TH-th"})
        void shouldWriteTheSubjectInThaiWithBahtSign(String locale) {
            assertThat(subject(ContractEvent.event().locale(locale).build())).isEqualTo("โอนเงินสำเร็จ ฿1,500.00");
        }

        @ParameterizedTest(name = "locale {0}")
        @NullSource
        @ValueSource(strings = {"en-GB", "en", "fr-FR", ""})
        void shouldWriteTheSubjectInEnglishWithTheCurrencyCode(String locale) {
            assertThat(subject(ContractEvent.event().locale(locale).build())).isEqualTo("Transfer completed: THB 1,500.00");
        }

        @Test
        void shouldStateTransferAndTimeInTheRecipientsZone() {
            assertThat(shipped.render(Channel.EMAIL, "body.txt", ContractEvent.event().locale("en-GB").build(), null))
                    .startsWith("Dear สมชาย ใจดี,\n")
                    .contains("Your transfer TRX-000123 of THB 1,500.00 was completed on 2 Dec 2026 17:15 (UTC+07:00).");
        }

        @Test
        void shouldShowTheCurrencysOwnFractionDigits() {
            TransferEvent event = ContractEvent.event().locale("en-GB").amount("1234567.5").build();

            assertThat(subject(event)).isEqualTo("Transfer completed: THB 1,234,567.50");
        }

        @ParameterizedTest(name = "locale {0}")
        @ValueSource(strings = {"th-TH", "en-GB"})
        void shouldFallBackToAGenericSalutationWithoutAName(String locale) {
            String body = shipped.render(Channel.EMAIL, "body.txt", ContractEvent.event().locale(locale).name(" ").build(), null);

            assertThat(body).startsWith(locale.startsWith("th") ? "เรียน คุณลูกค้า\n" : "Dear customer,\n");
        }

        @ParameterizedTest(name = "locale {0}")
        @ValueSource(strings = {"th-TH", "en-GB"})
        void shouldWriteALineTextMessageToTheUserId(String locale) throws Exception {
            TransferEvent event = ContractEvent.event().locale(locale).lineUserId(ContractEvent.LINE_USER_ID).build();

            JsonNode request = JSON.readTree(shipped.render(Channel.LINE, "request.json", event, ContractEvent.LINE_USER_ID));

            assertThat(request.get("to").asText()).isEqualTo(ContractEvent.LINE_USER_ID);
            assertThat(request.get("messages")).hasSize(1);
            assertThat(request.get("messages").get(0).get("type").asText()).isEqualTo("text");
            assertThat(request.get("messages").get(0).get("text").asText())
                    .contains(locale.startsWith("th") ? "โอนเงินสำเร็จ ฿1,500.00" : "Transfer completed: THB 1,500.00", "TRX-000123");
        }

        @Test
        void shouldKeepAQuoteInANameInsideItsJsonString() throws Exception {
            TransferEvent event = ContractEvent.event().locale("en").name("A \"quoted\" \\ na\u2028me").build();
            Files.createDirectories(root.resolve("sms/en"));
            Files.writeString(root.resolve("sms/en/request.json"), "{\"text\": \"Hi ${name}\", \"to\": \"${to}\"}");

            String rendered = TestTemplates.from("file:" + root).render(SMS, "request.json", event, "+66\"}, \"x\": \"1");

            JsonNode request = JSON.readTree(rendered);
            assertThat(request.get("text").asText()).isEqualTo("Hi A \"quoted\" \\ na\u2028me");
            assertThat(request.get("to").asText()).isEqualTo("+66\"}, \"x\": \"1");
            assertThat(request.has("x")).isFalse();
        }
    }

    @Nested
    class Lookup {

        @Test
        void shouldFallBackToEnglishWhenAChannelHasNoThai() throws IOException {
            write("sms/en/request.json", "{\"text\": \"${amount}\"}");

            String rendered = TestTemplates.from("file:" + root).render(SMS, "request.json", ContractEvent.event().build(), null);

            // the English file, in the recipient's formatting: Thai amount with the baht sign
            assertThat(rendered).isEqualTo("{\"text\": \"฿1,500.00\"}");
        }

        @Test
        void shouldPreferTheFirstLocationAndFindTheRestInTheNext() throws IOException {
            write("email/en/subject.txt", "Overridden ${amount}");

            Templates templates = TestTemplates.from("file:" + root, "file:templates");
            TransferEvent english = ContractEvent.event().locale("en").build();

            assertThat(templates.render(Channel.EMAIL, "subject.txt", english, null)).isEqualTo("Overridden THB 1,500.00");
            assertThat(templates.render(Channel.EMAIL, "body.txt", english, null)).startsWith("Dear สมชาย ใจดี,");
        }

        @Test
        void shouldReadThePackagedCopyFromTheClassPath() {
            Templates packaged = TestTemplates.from("classpath:templates");

            assertThat(packaged.render(Channel.EMAIL, "subject.txt", ContractEvent.event().build(), null).strip())
                    .isEqualTo("โอนเงินสำเร็จ ฿1,500.00");
        }
    }

    @Nested
    class StartupCheck {

        @Test
        void shouldPassForEveryShippedTemplate() {
            shipped.check(Channel.EMAIL, List.of("subject.txt", "body.txt", "body.html"), SampleEvents.all());
            shipped.check(Channel.PUSH, List.of("request.json"), SampleEvents.all());
            shipped.check(Channel.LINE, List.of("request.json"), SampleEvents.all());
        }

        @Test
        void shouldNameTheFileAndLineOfASyntaxError() throws IOException {
            write("sms/en/request.json", "{\n\"text\": \"${amount\"}");

            assertThatThrownBy(() -> check("request.json")).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("template sms/en/request.json cannot be used: ").hasMessageContaining("line 2");
        }

        @Test
        void shouldRefuseAValueNoEventHas() throws IOException {
            write("sms/en/request.json", "{\"text\": \"${balance}\"}");

            assertThatThrownBy(() -> check("request.json")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("sms/en/request.json").hasMessageContaining("balance");
        }

        @Test
        void shouldRefuseANameUsedWithoutADefault() throws IOException {
            // some events have no name: the sample without one finds it at start, not a customer's event later
            write("sms/en/request.json", "{\"text\": \"${name}\"}");

            assertThatThrownBy(() -> check("request.json")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("name");
        }

        @Test
        void shouldRefuseAJsonTemplateThatDoesNotRenderJson() throws IOException {
            write("sms/en/request.json", "{\"text\": ${amount}}");

            assertThatThrownBy(() -> check("request.json")).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("template sms/en/request.json cannot be used: ");
        }

        @Test
        void shouldRequireEnglish() throws IOException {
            write("sms/th/request.json", "{}");

            assertThatThrownBy(() -> check("request.json")).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("template sms/en/request.json cannot be used: ");
        }

        @Test
        void shouldRefuseAnExtensionThatChoosesNoEscaping() throws IOException {
            write("sms/en/request.xml", "<text>${amount}</text>");

            assertThatThrownBy(() -> check("request.xml")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(".html, .json or .txt");
        }

        @Test
        void shouldNotLetATemplateRunJava() throws IOException {
            write("sms/en/request.txt", "<#assign e = \"freemarker.template.utility.Execute\"?new()>${e(\"id\")}");

            assertThatThrownBy(() -> check("request.txt")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("sms/en/request.txt");
        }

        private void check(String name) {
            TestTemplates.from("file:" + root).check(SMS, List.of(name), SampleEvents.all());
        }
    }

    @Test
    void shouldFailAtRenderTimeAsUndeliverableForGood() {
        assertThatThrownBy(() -> shipped.render(SMS, "request.json", ContractEvent.event().build(), null))
                .isInstanceOf(UndeliverableException.class).hasMessageStartingWith("cannot render sms/request.json: ");
    }

    /** As the email composer takes it: one line (the file ends with a line break). */
    private String subject(TransferEvent event) {
        return shipped.render(Channel.EMAIL, "subject.txt", event, null).strip();
    }

    private void write(String path, String content) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }
}
