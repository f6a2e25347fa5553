package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.delivery.email.SmtpSettings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** How long a send may take, every step counted, against its claim; the end-to-end check is in LeaseTooShortTest. */
class SendWithinLeaseTest {

    @Test
    void shouldNameEverySendThatCannotBeOverBeforeItsDeadline() {
        Map<String, Duration> sends = new LinkedHashMap<>();
        sends.put("fits", Duration.ofSeconds(7));
        sends.put("exactly", Duration.ofSeconds(8));
        sends.put("too slow", Duration.ofMillis(8_001));
        sends.put("no timeout", null);

        // a 10 s lease, 1 s margin: a send must be over 1 s before its claim ends, and needs 1 s more to start
        assertThat(SendWithinLease.overruns(Duration.ofSeconds(10), Duration.ofSeconds(1), sends))
                .hasSize(2)
                .anySatisfy(m -> assertThat(m).contains("too slow may take 8001 ms").contains(": 8000 ms.")
                        .contains("never sent twice").contains("raise the lease to at least 18 s"))
                .anySatisfy(m -> assertThat(m).contains("no timeout may take forever").contains("give those timeouts a limit"));
    }

    @Nested
    class Smtp {

        private final Duration timeout = Duration.ofSeconds(10);
        private final Duration wait = Duration.ofSeconds(5);

        @Test
        void shouldCountTheConnectAndEveryReplyOfANewConnectionAndAMessage() {
            // connect, greeting, EHLO, MAIL FROM, RCPT TO, DATA, the final dot
            assertThat(settings(SmtpSettings.Tls.NONE).worstSend(false)).isEqualTo(wait.plus(timeout.multipliedBy(7)));
        }

        @Test
        void shouldCountStartTlsAndLoginWhenTheyAreUsed() {
            // + STARTTLS, the handshake, EHLO again; + AUTH LOGIN's three replies
            assertThat(settings(SmtpSettings.Tls.STARTTLS).worstSend(true)).isEqualTo(wait.plus(timeout.multipliedBy(13)));
            assertThat(settings(SmtpSettings.Tls.SMTPS).worstSend(false)).isEqualTo(wait.plus(timeout.multipliedBy(8)));
        }

        @Test
        void shouldFitTheShippedLeaseWithTlsAndALogin() {
            DeliverySchedule schedule = new DeliverySchedule(Duration.ofSeconds(1), Duration.ofSeconds(300),
                    Duration.ofSeconds(180));
            Map<String, Duration> sends = Map.of("SMTP", settings(SmtpSettings.Tls.STARTTLS).worstSend(true));

            assertThat(SendWithinLease.overruns(schedule.lease(), schedule.margin(), sends)).isEmpty();
        }

        private SmtpSettings settings(SmtpSettings.Tls tls) {
            return new SmtpSettings("no-reply@notifier.local", tls, null, null, false, timeout, 16, 100,
                    Duration.ofSeconds(10), wait);
        }
    }

    @Test
    void shouldHaveASenderStartWithEnoughOfItsClaimForTheLongestSend() {
        DeliverySchedule schedule = new DeliverySchedule(Duration.ofSeconds(1), Duration.ofSeconds(300),
                Duration.ofSeconds(180));

        schedule.longestSend(Duration.ofSeconds(75));
        assertThat(schedule.renewWithin()).isEqualTo(Duration.ofSeconds(80));

        // longer than a claim can give: all of it but the margin (a claim just taken is never renewed)
        schedule.longestSend(Duration.ofSeconds(400));
        assertThat(schedule.renewWithin()).isEqualTo(Duration.ofSeconds(175));
    }
}
