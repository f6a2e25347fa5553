package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.LogCapture;
import dev.notifier.support.PipelineTestBase;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.camel.component.http.HttpComponent;
import org.apache.camel.component.http.HttpEndpoint;
import org.junit.jupiter.api.Test;

/**
 * Camel's {@code http} and {@code https} schemes are two instances of one component, configured
 * apart. A provider on https (LINE's shipped URL; any production push gateway) must get what the
 * shipped configuration gives http: no silent retries, no redirects followed, a pool sized for the
 * senders and a bounded wait for it, and the connections whose sends' deadlines cut them off.
 * Without it, a send to LINE could wait three minutes for a connection, or read a dripped answer, past
 * its claim.
 */
class HttpsProviderSettingsTest extends PipelineTestBase {

    @Test
    void shouldGiveEveryHttpSettingToHttpsAsWell() throws Exception {
        Properties shipped = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of("config/application.properties"))) {
            shipped.load(in);
        }

        var http = shipped.stringPropertyNames().stream().filter(k -> k.startsWith("camel.component.http.")).toList();

        assertThat(http).as("HTTP client settings shipped").isNotEmpty();
        assertThat(http).allSatisfy(key -> assertThat(shipped.getProperty(key.replace(".http.", ".https.")))
                .as(key + " for https").isEqualTo(shipped.getProperty(key)));
    }

    @Test
    void shouldSendToTheShippedHttpsLineUrlWithTheHttpClientSettings() throws Exception {
        Map<String, String> settings = settings();
        // the shipped default, https://api.line.me/...: nothing is sent to it, only its endpoint is built
        settings.remove("notifier.channel.line.url");
        int mark = LogCapture.mark();

        startNotifier(settings);

        HttpEndpoint line = notifier.context().getEndpoints().stream().filter(HttpEndpoint.class::isInstance)
                .map(HttpEndpoint.class::cast).filter(e -> "https".equals(e.getHttpUri().getScheme())).findFirst()
                .orElseThrow();
        HttpComponent https = (HttpComponent) line.getComponent();
        HttpComponent http = notifier.context().getComponent("http", HttpComponent.class);
        assertThat(https).isNotSameAs(http);
        assertThat(line.getConnectionRequestTimeout()).isEqualTo(5000);
        // one pool for both schemes, Notifier's own (a send's deadline closes its connection), sized for the senders
        assertThat(https.getClientConnectionManager()).isSameAs(http.getClientConnectionManager());
        assertThat(((org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager) https.getClientConnectionManager())
                .getDefaultMaxPerRoute()).isEqualTo(16);
        assertThat(https.isRedirectHandlingDisabled()).isTrue();
        assertThat(https.isAutomaticRetriesDisabled()).isTrue();
        assertThat(https.isCookieManagementDisabled()).isTrue();
        assertThat(LogCapture.entriesSince(mark)).as("sends longer than a claim allows")
                .noneMatch(e -> e.line().contains("longer than its claim allows"));
    }
}
