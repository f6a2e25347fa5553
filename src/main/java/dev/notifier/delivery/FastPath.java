package dev.notifier.delivery;

import org.apache.camel.CamelContext;
import org.apache.camel.ServiceStatus;

/**
 * Whether intake should hand a committed notification to the fast path's senders, and so wait for
 * room when they are busy: only while their route runs. When it is stopped (an operator paused
 * delivery, a run measuring the inbox stage alone) or the service is stopping, waiting would only
 * hold intake up; the retry poller takes those rows instead.
 */
public class FastPath {

    /** The route that consumes the hand-off queue. */
    public static final String ROUTE = "deliver-notification";

    private final CamelContext context;

    public FastPath(CamelContext context) {
        this.context = context;
    }

    public boolean isOpen() {
        return !context.isStopping() && context.getRouteController().getRouteStatus(ROUTE) == ServiceStatus.Started;
    }
}
