package dev.notifier.delivery;

import java.io.IOException;
import java.util.concurrent.BlockingQueue;
import org.apache.camel.Component;
import org.apache.camel.Exchange;
import org.apache.camel.Producer;
import org.apache.camel.component.seda.BlockingQueueFactory;
import org.apache.camel.component.seda.SedaComponent;
import org.apache.camel.component.seda.SedaConsumerNotAvailableException;
import org.apache.camel.component.seda.SedaEndpoint;
import org.apache.camel.component.seda.SedaProducer;

/**
 * camel-seda, as the {@code seda} component, with one fix: a queue that refuses an exchange (full, or
 * its channel congested: {@link ChannelSenders}) fails that exchange, so the hand-off's catch gives the
 * notification back to the retry poller. camel-seda 4.22 throws the refusal out of its producer
 * instead; inside a recipient list that escapes to Camel's reactive executor, which logs and ignores it,
 * and the exchange never completes: the intake thread that handed off waits for ever.
 */
public final class ChannelQueues extends SedaComponent {

    @Override
    protected SedaEndpoint createEndpoint(String endpointUri, Component component, BlockingQueueFactory<Exchange> queueFactory,
                                          int concurrentConsumers) {
        return new Endpoint(endpointUri, component, queueFactory, concurrentConsumers);
    }

    @Override
    protected SedaEndpoint createEndpoint(String endpointUri, Component component, BlockingQueue<Exchange> queue,
                                          int concurrentConsumers) {
        return new Endpoint(endpointUri, component, queue, concurrentConsumers);
    }

    private static final class Endpoint extends SedaEndpoint {

        Endpoint(String uri, Component component, BlockingQueueFactory<Exchange> queueFactory, int concurrentConsumers) {
            super(uri, component, queueFactory, concurrentConsumers);
        }

        Endpoint(String uri, Component component, BlockingQueue<Exchange> queue, int concurrentConsumers) {
            super(uri, component, queue, concurrentConsumers);
        }

        @Override
        public Producer createProducer() {
            return new SedaProducer(this, getWaitForTaskToComplete(), getTimeout(), isBlockWhenFull(), isDiscardWhenFull(),
                    getOfferTimeout()) {
                @Override
                protected void addToQueue(Exchange exchange, boolean copy) throws SedaConsumerNotAvailableException, IOException {
                    try {
                        super.addToQueue(exchange, copy);
                    } catch (IllegalStateException refused) {
                        throw new IOException(getEndpoint().getEndpointKey() + ": " + refused.getMessage(), refused);
                    }
                }
            };
        }
    }
}
