package dev.notifier.ops;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;

/**
 * Liveness and readiness as Camel's health-check registry sees them (the context, the routes, the
 * Kafka consumers' own checks, the database), as JSON with 200 when up and 503 when not.
 */
public final class HealthReport {

    public record Check(String id, String state, String message) {
    }

    public record Report(String status, List<Check> checks) {
    }

    private static final String OWN_GROUP = "notifier";

    private final CamelContext context;

    public HealthReport(CamelContext context) {
        this.context = context;
    }

    /** Is the process worth keeping? Down means restart it. */
    public void liveness(Exchange exchange) {
        answer(exchange, HealthCheckHelper.invokeLiveness(context), false);
    }

    /** Can it do its work now: consume, record and deliver? Down means send it no work. */
    public void readiness(Exchange exchange) {
        answer(exchange, HealthCheckHelper.invokeReadiness(context), true);
    }

    private static void answer(Exchange exchange, Collection<HealthCheck.Result> results, boolean readiness) {
        boolean up = HealthCheckHelper.isResultsUp(results, readiness);
        // only Notifier's own checks say why: Camel's would quote an exception (broker addresses and the
        // like) to whoever can reach the open health URLs
        List<Check> checks = results.stream()
                .map(r -> new Check(r.getCheck().getId(), r.getState().name(),
                        OWN_GROUP.equals(r.getCheck().getGroup()) ? r.getMessage().orElse(null) : null))
                .sorted(Comparator.comparing(Check::id))
                .toList();
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, up ? 200 : 503);
        exchange.getMessage().setBody(new Report(up ? "UP" : "DOWN", checks));
    }
}
