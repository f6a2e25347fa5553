package dev.notifier.bounce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.Dsn;
import dev.notifier.support.Dsn.Relay;
import jakarta.mail.internet.MimeMessage;
import java.util.UUID;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

/** What one mail of the bounce mailbox is, before anything is written: hostile mail is set aside cheaply. */
class BounceMailTest {

    private static final UUID EVENT = UUID.randomUUID();

    @Test
    void shouldSetAsideAMailTooLargeForAReportWithoutReadingIt() throws Exception {
        MimeMessage huge = new MimeMessage(Dsn.message(Dsn.text(Relay.POSTFIX, "<h@r>", EVENT, "a@example.com", "failed", "5.1.1", "x"))) {
            @Override
            public int getSize() {
                return 300 * 1024 * 1024;
            }

            @Override
            public Object getContent() {
                throw new AssertionError("a mail too large must not be read");
            }
        };

        Exchange exchange = read(huge);

        assertThat(exchange.getProperty(BounceMail.ASIDE, String.class)).startsWith("too large for a delivery status notification");
        assertThat(exchange.getProperty(BounceMail.REPORT)).isNull();
    }

    @Test
    void shouldKeyAReportByItsOwnMessageIdOrElseByWhatItReports() {
        Exchange withId = read(Dsn.message(Dsn.text(Relay.GMAIL, "<r-1@google>", EVENT, "a@example.com", "failed", "5.1.1", "x")));
        Exchange without = read(Dsn.message(Dsn.text(Relay.GMAIL, null, EVENT, "a@example.com", "failed", "5.1.1", "x")));
        Exchange withoutAgain = read(Dsn.message(Dsn.text(Relay.GMAIL, null, EVENT, "a@example.com", "failed", "5.1.1", "x")));

        assertThat(withId.getProperty(BounceMail.KEY)).isEqualTo("<r-1@google>");
        assertThat(without.getProperty(BounceMail.KEY, String.class)).startsWith("sha256:")
                .isEqualTo(withoutAgain.getProperty(BounceMail.KEY));
    }

    @Test
    void shouldSetAsideAnAutoReplyWithHeaderInjectionAttempts() {
        Exchange exchange = read(Dsn.message("From: x@example.com\r\nSubject: Re: =?UTF-8?Q?a=0D=0ABcc:_evil@example.com?=\r\n"
                + "Content-Type: multipart/report; report-type=disposition-notification; boundary=\"b\"\r\n\r\n--b\r\n\r\nhi\r\n--b--\r\n"));

        assertThat(exchange.getProperty(BounceMail.ASIDE, String.class)).isEqualTo("no delivery status notification (RFC 3464)");
    }

    private static Exchange read(MimeMessage mail) {
        Exchange exchange = new DefaultExchange(new DefaultCamelContext());
        exchange.getMessage().setBody(mail);
        new BounceMail().read(exchange);
        return exchange;
    }
}
