package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.LogCapture;
import dev.notifier.support.PipelineTestBase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A lease too short for the timeouts the routes actually use is named at start, send by send, with
 * what to change: such a send is cut off at its claim's deadline and tried again, and a provider that
 * slow may never get it. (The shipped configuration fits: StartupWarningsTest.)
 */
class LeaseTooShortTest extends PipelineTestBase {

    @Test
    void shouldWarnAboutEachSendThatCannotBeOverBeforeItsDeadline() throws Exception {
        Map<String, String> settings = settings();
        // a 20 s claim, 2 s margin: a send may take 16 s
        settings.put("notifier.delivery.lease-seconds", "20");
        settings.put("notifier.channel.push.read-timeout-millis", "15000");
        settings.put("notifier.channel.push.connect-timeout-millis", "1000");
        settings.put("camel.component.http.connection-request-timeout", "1000");
        settings.put("notifier.channel.line.read-timeout-millis", "2000");
        settings.put("notifier.channel.line.connect-timeout-millis", "1000");
        settings.put("notifier.smtp.timeout-millis", "2000");
        settings.put("notifier.smtp.connection-wait-millis", "1000");
        int mark = LogCapture.mark();

        startNotifier(settings);

        List<String> warnings = LogCapture.entriesSince(mark).stream()
                .filter(e -> e.line().contains("longer than its claim allows")).map(LogCapture.Entry::line).toList();
        // push: 1 + 1 + 15 s > 16 s; SMTP: 1 s + 7 x 2 s = 15 s fits; LINE (http here): 1 + 1 + 2 s fits
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains(peers.pushUrl()).contains("responseTimeout 15000 ms")
                .contains("may take 17000 ms").contains(": 16000 ms.").contains("raise the lease to at least 27 s");
    }

    @Test
    void shouldCountEverySmtpReplyNotJustOne() throws Exception {
        Map<String, String> settings = settings();
        settings.put("notifier.delivery.lease-seconds", "20");
        // 1 s + 7 x 3 s = 22 s: a connect and one reply (6 s) would have looked fine
        settings.put("notifier.smtp.timeout-millis", "3000");
        settings.put("notifier.smtp.connection-wait-millis", "1000");
        int mark = LogCapture.mark();

        startNotifier(settings);

        assertThat(LogCapture.entriesSince(mark).stream().map(LogCapture.Entry::line)
                .filter(l -> l.contains("longer than its claim allows")).toList())
                .singleElement().satisfies(w -> assertThat(w).contains("SMTP").contains("may take 22000 ms")
                        .contains("MAIL FROM, RCPT TO, DATA, the final dot"));
    }
}
