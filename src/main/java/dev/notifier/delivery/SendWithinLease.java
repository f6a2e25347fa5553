package dev.notifier.delivery;

import dev.notifier.delivery.email.SmtpSender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.component.http.HttpEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long one send may take, every step at its timeout, against the claim it runs under. Checked
 * once the routes run, against what they actually use: every HTTP provider endpoint's pool wait,
 * connect (and TLS handshake) and response timeouts; SMTP's connection wait, connect and every reply
 * of a new connection and a message ({@link dev.notifier.delivery.email.SmtpSettings#worstSend}).
 *
 * <p>The longest of them tells the schedule how much of its claim a sender needs before it starts
 * ({@link DeliverySchedule#longestSend}): a claim with less left is renewed first. A send that does
 * not fit in a claim even then is cut off at its deadline ({@link SendDeadline}) and tried again later,
 * never sent twice, but a provider that slow may never get it: each such send is a WARN at start,
 * naming its timeouts and the lease that would fit it.
 */
public final class SendWithinLease {

    private static final Logger LOG = LoggerFactory.getLogger("dev.notifier.delivery");

    private SendWithinLease() {
    }

    /** Tells the schedule the longest send, and logs a WARN for each send that cannot fit in a claim. */
    public static void check(CamelContext context, DeliverySchedule schedule, SmtpSender smtp) {
        Map<String, Duration> sends = new LinkedHashMap<>();
        for (Endpoint endpoint : context.getEndpoints()) {
            if (endpoint instanceof HttpEndpoint http) {
                long poolWait = http.getConnectionRequestTimeout();
                long connect = http.getConnectTimeout();
                // each read of the answer; (soTimeout belongs to camel-http's own connection pool, unused here)
                long response = http.getResponseTimeout();
                boolean tls = "https".equalsIgnoreCase(http.getHttpUri().getScheme());
                sends.put("HTTP " + where(http.getHttpUri()) + " (connection-request-timeout " + poolWait
                        + " ms + connectTimeout " + connect + " ms" + (tls ? " + the TLS handshake, " + connect + " ms" : "")
                        + " + responseTimeout " + response + " ms)",
                        tls ? worst(poolWait, connect, connect, response) : worst(poolWait, connect, response));
            }
        }
        if (smtp != null) {
            sends.put("SMTP (notifier.smtp.connection-wait-millis " + smtp.settings().connectionWait().toMillis()
                    + " ms, then notifier.smtp.timeout-millis " + smtp.settings().timeout().toMillis() + " ms for the connect"
                    + " and each reply of a new connection and a message: greeting, EHLO, "
                    + switch (smtp.settings().tls()) {
                        case STARTTLS -> "STARTTLS, the handshake, EHLO again, ";
                        case SMTPS -> "the handshake, ";
                        case NONE -> "";
                    }
                    + (smtp.getUsername() == null || smtp.getUsername().isBlank() ? "" : "AUTH LOGIN (3), ")
                    + "MAIL FROM, RCPT TO, DATA, the final dot)", smtp.worstSend());
        }
        sends.values().stream().filter(Objects::nonNull).max(Duration::compareTo).ifPresent(schedule::longestSend);
        overruns(schedule.lease(), schedule.margin(), sends).forEach(LOG::warn);
    }

    /**
     * The sends that cannot be over before the deadline of a claim they start with in full, as messages: a
     * send has the lease less a margin before its deadline, and the sender needs that margin again of it
     * left when it starts. A timeout of 0 or less never ends.
     */
    static List<String> overruns(Duration lease, Duration margin, Map<String, Duration> worstSend) {
        Duration fits = lease.minus(margin.multipliedBy(2));
        List<String> overruns = new ArrayList<>();
        worstSend.forEach((send, worst) -> {
            if (worst == null || worst.compareTo(fits) > 0) {
                overruns.add("a send may take longer than its claim allows: " + send + " may take "
                        + (worst == null ? "forever" : worst.toMillis() + " ms") + ", but a send must be over "
                        + margin.toMillis() + " ms before its claim (notifier.delivery.lease-seconds, "
                        + lease.toSeconds() + " s) ends, and needs as much again to start: " + fits.toMillis() + " ms."
                        + " Such a send is cut off at its deadline and tried again later, never sent twice, but a"
                        + " provider that slow may never get it; "
                        + (worst == null ? "give those timeouts a limit"
                        : "raise the lease to at least " + worst.plus(Duration.ofSeconds(10)).toSeconds()
                        + " s or lower those timeouts"));
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
