package dev.notifier.delivery.push;

import dev.notifier.delivery.ProviderRejectedException;
import dev.notifier.event.UntrustedText;
import org.apache.camel.Exchange;

/**
 * The contract's status mapping: 2xx accepted; 408, 429 and 5xx worth another try with the same
 * Idempotency-Key; any other status a rejection for good.
 */
public class PushResponses {

    /** The gateway's answer on the exchange, as camel-http left it (throwExceptionOnFailure off). */
    public void check(Exchange exchange) {
        Integer code = exchange.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE, Integer.class);
        check(code == null ? 0 : code, exchange.getMessage().getBody(String.class));
    }

    public void check(int status, String body) {
        if (status >= 200 && status < 300) {
            return;
        }
        boolean transientFailure = status == 408 || status == 429 || status >= 500;
        String reason = "push gateway answered HTTP " + status + (body == null || body.isBlank() ? "" : ": " + abbreviate(body));
        throw new ProviderRejectedException(reason, !transientFailure);
    }

    /** A gateway's body is free text of any size: one line, cut, read no further than needed. */
    private static String abbreviate(String body) {
        return UntrustedText.oneLine(body, 300);
    }
}
