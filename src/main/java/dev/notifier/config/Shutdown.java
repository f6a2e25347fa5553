package dev.notifier.config;

import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.camel.support.service.ServiceSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the service closes after every route has stopped and finished its in-flight work, in the
 * order that keeps it safe: what writes to the database (the delivery ledger, the DLQ producer, the
 * SMTP connections) before the pool they write through.
 */
final class Shutdown extends ServiceSupport {

    private static final Logger LOG = LoggerFactory.getLogger(Shutdown.class);
    private final Deque<AutoCloseable> closeables = new ArrayDeque<>();

    /** Closed before everything added earlier. */
    <T extends AutoCloseable> T closeFirst(T closeable) {
        closeables.addFirst(closeable);
        return closeable;
    }

    @Override
    protected void doStop() {
        for (AutoCloseable closeable : closeables) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warn("closing {}: {}", closeable.getClass().getSimpleName(), e.toString());
            }
        }
        closeables.clear();
    }
}
