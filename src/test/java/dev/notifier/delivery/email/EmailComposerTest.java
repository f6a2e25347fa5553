package dev.notifier.delivery.email;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.delivery.NotificationKey;
import dev.notifier.delivery.UndeliverableException;
import java.time.Instant;
import dev.notifier.event.InvalidEventException;
import dev.notifier.event.TransferEvent;
import dev.notifier.support.ContractEvent;
import dev.notifier.support.TestTemplates;
import jakarta.mail.Address;
import jakarta.mail.Message.RecipientType;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import jakarta.mail.util.StreamProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EmailComposerTest {

    private static final String FROM = "alerts@bank.example";
    private static final String MESSAGE_ID = "<" + ContractEvent.EVENT_ID + ".email@notifier>";

    private final EmailComposer composer = composer();

    @Test
    void shouldNameAStreamProviderJakartaMailCanLoad() throws Exception {
        // a wrong class name here would make every encode/decode throw, i.e. no email could be sent
        assertThat(System.getProperty(EmailComposer.STREAM_PROVIDER)).isNotBlank();
        assertThat(StreamProvider.provider().getClass().getName())
                .isEqualTo(System.getProperty(EmailComposer.STREAM_PROVIDER));
        assertThat(written(compose(ContractEvent.event().build()))).contains("Message-ID: " + MESSAGE_ID);
    }

    @Nested
    class Addressing {

        @Test
        void shouldSendToTheRecipientOnly() throws Exception {
            MimeMessage message = compose(ContractEvent.event().build());

            assertThat(message.getAllRecipients()).extracting(Address::toString).containsExactly(ContractEvent.EMAIL);
            assertThat(message.getRecipients(RecipientType.TO)).hasSize(1);
        }

        @Test
        void shouldSendFromTheConfiguredSender() throws Exception {
            assertThat(compose(ContractEvent.event().build()).getFrom())
                    .extracting(Address::toString).containsExactly(FROM);
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"a@b.com\r\nBcc: x@y.com", "a@b.com, c@d.com", "Somchai <a@b.com>"})
        void shouldRefuseARecipientAddressThatIsNotOneBareMailbox(String email) {
            TransferEvent event = ContractEvent.event().email(email).build();

            // no retry can make it one: the row is FAILED at once
            assertThatThrownBy(() -> composer.compose(claimed(event))).isInstanceOf(UndeliverableException.class)
                    .hasMessageStartingWith("cannot compose the email: recipient.email: ");
        }

        @Test
        void shouldNotLetTheNameAddAHeader() throws Exception {
            TransferEvent event = ContractEvent.event().name("x\r\nBcc: evil@example.com\r\n").build();

            String headers = written(compose(event)).split("\r\n\r\n", 2)[0];

            assertThat(headers).doesNotContainIgnoringCase("bcc").doesNotContain("evil@example.com");
        }
    }

    @Nested
    class Content {

        @Test
        void shouldWriteTheSubjectInTheRecipientsLanguageAsUtf8() throws Exception {
            MimeMessage message = compose(ContractEvent.event().build());

            assertThat(message.getSubject()).isEqualTo("โอนเงินสำเร็จ ฿1,500.00");
            assertThat(message.getHeader("Subject", null)).startsWithIgnoringCase("=?UTF-8?");
        }

        @Test
        void shouldSendPlainTextAndHtmlAsAlternativesInUtf8() throws Exception {
            MimeMessage message = compose(ContractEvent.event().build());

            assertThat(message.getContentType()).startsWith("multipart/alternative");
            MimeMultipart alternatives = (MimeMultipart) message.getContent();
            assertThat(alternatives.getCount()).isEqualTo(2);
            // least preferred first (RFC 2046): plain text, then HTML
            assertThat(alternatives.getBodyPart(0).getContentType()).startsWith("text/plain").containsIgnoringCase("charset=UTF-8");
            assertThat(alternatives.getBodyPart(1).getContentType()).startsWith("text/html").containsIgnoringCase("charset=UTF-8");
            assertThat(text(alternatives, 0)).startsWith("เรียน คุณสมชาย ใจดี\n").contains("TRX-000123", "฿1,500.00",
                    "2 ธ.ค. 2026 17:15 (UTC+07:00)");
            assertThat(text(alternatives, 1)).contains("<html lang=\"th\">", "คุณสมชาย ใจดี", "<strong>฿1,500.00</strong>");
        }

        @Test
        void shouldEscapeTheNameInTheHtmlPartAndKeepItReadableInThePlainPart() throws Exception {
            MimeMessage message = compose(ContractEvent.event().locale("en").name("<script>alert(1)</script> & \"Co\"").build());

            MimeMultipart alternatives = (MimeMultipart) message.getContent();
            assertThat(text(alternatives, 1)).contains("Dear &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;,")
                    .doesNotContain("<script>");
            assertThat(text(alternatives, 0)).startsWith("Dear <script>alert(1)</script> & \"Co\",\n");
        }

        @Test
        void shouldKeepControlCharactersOfTheNameOutOfEveryPart() throws Exception {
            String name = "สมชาย\r\nBcc: evil@example.com\u0000\t\u001B[31m\u007F\u0085ใจดี";
            MimeMultipart alternatives = (MimeMultipart) compose(ContractEvent.event().name(name).build()).getContent();

            for (int part = 0; part < 2; part++) {
                String text = text(alternatives, part);
                assertThat(text.replace("\n", "").codePoints().filter(Character::isISOControl)).isEmpty();
                assertThat(text).contains("สมชาย Bcc: evil@example.com [31m ใจดี");
            }
        }

        @Test
        void shouldWriteInEnglishForAnEnglishLocale() throws Exception {
            MimeMessage message = compose(ContractEvent.event().locale("en-GB").build());

            assertThat(message.getSubject()).isEqualTo("Transfer completed: THB 1,500.00");
        }
    }

    @Nested
    class Identity {

        @Test
        void shouldCarryTheNotificationKey() throws Exception {
            assertThat(compose(ContractEvent.event().build()).getHeader("X-Notification-Key"))
                    .containsExactly(ContractEvent.EVENT_ID + ":EMAIL");
        }

        @Test
        void shouldDeriveTheMessageIdFromTheEventId() throws Exception {
            assertThat(compose(ContractEvent.event().build()).getMessageID()).isEqualTo(MESSAGE_ID);
        }

        @Test
        void shouldKeepTheMessageIdAcrossSaveChanges() throws Exception {
            MimeMessage message = compose(ContractEvent.event().build());

            message.saveChanges();
            message.saveChanges();

            assertThat(message.getHeader("Message-ID")).containsExactly(MESSAGE_ID);
        }

        @Test
        void shouldGiveEveryComposeOfOneEventTheSameMessageId() throws Exception {
            TransferEvent event = ContractEvent.event().build();

            assertThat(compose(event).getMessageID()).isEqualTo(compose(event).getMessageID()).isEqualTo(MESSAGE_ID);
        }
    }

    private MimeMessage compose(TransferEvent event) {
        return composer.compose(claimed(event));
    }

    private static ClaimedNotification claimed(TransferEvent event) {
        return new ClaimedNotification(new NotificationKey(event.eventId(), dev.notifier.event.Channel.EMAIL), event, null, 1, Instant.now(), "token",
                Instant.now().plusSeconds(60));
    }

    private static String text(MimeMultipart alternatives, int part) throws IOException, MessagingException {
        return new String(alternatives.getBodyPart(part).getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static String written(MimeMessage message) throws IOException, MessagingException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        message.writeTo(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static EmailComposer composer() {
        try {
            return new EmailComposer(FROM, TestTemplates.shipped());
        } catch (InvalidEventException e) {
            throw new IllegalStateException(e);
        }
    }
}
