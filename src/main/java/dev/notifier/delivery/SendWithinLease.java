package dev.notifier.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.component.http.HttpEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether one send fits in the claim it starts with. A sender starts with at least half the lease
 * left ({@link DeliveryLedger#holdsClaim}: a claim closer to its end is renewed first); a send that
 * may take longer than that, by its own timeouts, can outlive its claim, which the retry poller then
 * takes over and sends again (with the same key). Checked once the routes run, against what they
 * actually use: every HTTP provider endpoint's pool wait, connect and response timeouts, and SMTP's
 * connect plus one reply. Each send that does not fit is a WARN naming its timeouts and the lease.
 */
public final class SendWithinLease {

    private static final Logger LOG = LoggerFactory.getLogger("dev.notifier.delivery");

    private SendWithinLease() {
    }

    /** Logs a WARN for each send of the started context that may outlive half the lease. */
    public static void check(CamelContext context, Duration lease, Duration smtpTimeout) {
        Map<String, Duration> sends = new LinkedHashMap<>();
        for (Endpoint endpoint : context.getEndpoints()) {
            if (endpoint instanceof HttpEndpoint http) {
                long poolWait = http.getConnectionRequestTimeout();
                long connect = http.getConnectTimeout();
                long response = Math.max(http.getResponseTimeout(), http.getSoTimeout());
                sends.put("HTTP " + where(http.getHttpUri()) + " (connection-request-timeout " + poolWait
                        + " ms + connectTimeout " + connect + " ms + responseTimeout " + response + " ms)",
                        worst(poolWait, connect, response));
            }
        }
        sends.put("SMTP (notifier.smtp.timeout-millis " + smtpTimeout.toMillis() + " ms, connect and a reply)",
                smtpTimeout.multipliedBy(2));
        overruns(lease, sends).forEach(LOG::warn);
    }

    /** The sends whose worst case exceeds half the lease, as messages; a timeout of 0 or less never ends. */
    static List<String> overruns(Duration lease, Map<String, Duration> worstSend) {
        Duration half = lease.dividedBy(2);
        List<String> overruns = new ArrayList<>();
        worstSend.forEach((send, worst) -> {
            if (worst == null || worst.compareTo(half) > 0) {
                overruns.add("a send may outlive its claim and be sent again (same key): " + send + " may take "
                        + (worst == null ? "forever" : worst.toMillis() + " ms") + ", but a sender starts with only half of"
                        + " notifier.delivery.lease-seconds (" + half.toMillis() + " ms) left; raise the lease or lower"
                        + " those timeouts");
            }
        });
        return overruns;
    }

    /** Scheme, host, port and path: never a query or user info, which may carry a credential. */
    private static String where(java.net.URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + uri.getPath();
    }

    /** The sum of timeouts in a row, or null (never ends) when one of them is 0 or less. */
    private static Duration worst(long... parts) {
        long total = 0;
        for (long part : parts) {
            if (part <= 0) {
                return null;
            }
            total += part;
        }
        return Duration.ofMillis(total);
    }
}
