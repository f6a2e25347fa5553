package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.LogCapture;
import dev.notifier.support.PipelineTestBase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A lease too short for the timeouts the routes actually use is named at start, send by send, with
 * what to change: such a send can outlive its claim and be sent a second time. (The shipped
 * configuration fits: StartupWarningsTest.)
 */
class LeaseTooShortTest extends PipelineTestBase {

    @Test
    void shouldWarnAboutEachSendThatMayOutliveItsClaim() throws Exception {
        Map<String, String> settings = settings();
        settings.put("notifier.delivery.lease-seconds", "20");
        settings.put("notifier.push.read-timeout-millis", "9000");
        settings.put("notifier.push.connect-timeout-millis", "1000");
        settings.put("camel.component.http.connection-request-timeout", "1000");
        settings.put("notifier.line.read-timeout-millis", "2000");
        settings.put("notifier.line.connect-timeout-millis", "1000");
        settings.put("notifier.smtp.timeout-millis", "6000");
        int mark = LogCapture.mark();

        startNotifier(settings);

        List<String> warnings = LogCapture.entriesSince(mark).stream()
                .filter(e -> e.line().contains("may outlive its claim")).map(LogCapture.Entry::line).toList();
        // push: 1 + 1 + 9 s > 10 s; SMTP: 2 x 6 s > 10 s; LINE: 1 + 1 + 2 s fits
        assertThat(warnings).hasSize(2);
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains(peers.pushUrl())
                .contains("responseTimeout 9000 ms").contains("may take 11000 ms").contains("(10000 ms) left"));
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("SMTP").contains("may take 12000 ms"));
    }
}
