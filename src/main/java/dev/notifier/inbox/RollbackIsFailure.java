package dev.notifier.inbox;

import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangeExtension;
import org.apache.camel.Processor;
import org.apache.camel.ProducerTemplate;

/**
 * Calls a transacted route and makes sure a rollback comes back as a failure, one that the caller's
 * error handler retries.
 *
 * <p>Camel's TransactionErrorHandler can roll a transaction back without an exception: a forced
 * or graceful shutdown marks in-flight transacted exchanges rollback-only. The caller's pipeline
 * then just stops, and camel-kafka, seeing no exception, takes the record as processed and
 * commits its offset on the next rebalance or close: the event is lost. Here a silent rollback
 * becomes an exception, so the consumer re-reads the record instead.
 *
 * <p>A rollback with an exception (the database failed) comes back from the transacted route
 * already dealt with by that route's own error handler, which has no redeliveries: marked
 * failure-handled (and, for a redelivering handler, exhausted). Camel's error handlers never
 * redeliver such an exchange, so the caller's redelivery policy (intake-error-handling: in place,
 * with backoff) would never apply and every database failure would go straight back to the Kafka
 * consumer, to be polled again at once. Those marks are cleared here, the exception kept: the
 * transacted route gave up on one attempt, whether to try again is the caller's decision.
 */
public final class RollbackIsFailure implements Processor {

    private final String endpointUri;
    private volatile ProducerTemplate template;
    /** Resolved once: resolving the URI on every send was 2.6 % of the intake thread's CPU (JFR, benchmark). */
    private volatile Endpoint endpoint;

    public RollbackIsFailure(String endpointUri) {
        this.endpointUri = endpointUri;
    }

    @Override
    public void process(Exchange exchange) {
        producer(exchange).send(endpoint, exchange);
        if (exchange.getException() == null && (exchange.isRollbackOnly() || exchange.isRollbackOnlyLast())) {
            exchange.setRollbackOnly(false);
            exchange.setRollbackOnlyLast(false);
            exchange.setException(new TransactionRolledBackException(endpointUri));
        }
        if (exchange.getException() != null) {
            // a failure, not yet dealt with: the caller's error handler decides what happens next
            ExchangeExtension failure = exchange.getExchangeExtension();
            failure.setFailureHandled(false);
            failure.setRedeliveryExhausted(false);
            failure.setErrorHandlerHandled(null);
        }
    }

    private ProducerTemplate producer(Exchange exchange) {
        ProducerTemplate current = template;
        if (current == null) {
            synchronized (this) {
                if (template == null) {
                    endpoint = exchange.getContext().getEndpoint(endpointUri);
                    template = exchange.getContext().createProducerTemplate();
                }
                current = template;
            }
        }
        return current;
    }

    /** The transaction behind an endpoint was rolled back; what it recorded is gone. */
    public static final class TransactionRolledBackException extends RuntimeException {
        TransactionRolledBackException(String endpointUri) {
            super("transaction of " + endpointUri + " was rolled back (shutting down?); the record will be read again");
        }
    }
}
