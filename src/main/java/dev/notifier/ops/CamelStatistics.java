package dev.notifier.ops;

import dev.notifier.inbox.BatchIntake;
import org.apache.camel.CamelContext;
import org.apache.camel.api.management.ManagedCamelContext;
import org.apache.camel.api.management.mbean.ManagedPerformanceCounterMBean;
import org.apache.camel.api.management.mbean.ManagedProcessorMBean;

/**
 * What the routes themselves counted: Camel's managed statistics (camel-management, JMX on, the
 * default statistics level), read by route or step id. Looked up on every read, so a route that was
 * advised or restarted is still found.
 */
public final class CamelStatistics {

    /** Records that completed intake, either into the inbox transaction or to the DLQ. */
    public static final String CONSUMED_ROUTE = "consume-events";
    /** The step that logs an event the inbox already had. */
    public static final String DUPLICATE_STEP = "log-duplicate";
    /** The same for the batch intake, once per duplicate record. */
    public static final String BATCH_DUPLICATE_STEP = "log-batch-duplicate";
    /** The step that logs a record repeating a recorded eventId with other content (then dead-lettered). */
    public static final String CONFLICT_STEP = "log-conflict";
    /** The same for the batch intake, once per conflicting record. */
    public static final String BATCH_CONFLICT_STEP = "log-batch-conflict";
    /** Records published to the DLQ topic. */
    public static final String DEAD_LETTER_ROUTE = "dead-letter";
    /** read-bounces' steps by what a mail was: bounced, delayed, or matched no email (also mails that were no DSN). */
    public static final String BOUNCE_HARD_STEP = "bounce-hard";
    public static final String BOUNCE_DELAYED_STEP = "bounce-delayed";
    public static final String BOUNCE_UNMATCHED_STEP = "bounce-unmatched";
    public static final String BOUNCE_ASIDE_STEP = "bounce-aside";
    private final CamelContext context;

    public CamelStatistics(CamelContext context) {
        this.context = context;
    }

    /** Per-event intake's completed exchanges, plus the records of the batch intake's completed batches. */
    public double consumed() {
        BatchIntake batches = context.getRegistry().lookupByNameAndType("batchIntake", BatchIntake.class);
        return completed(managed().getManagedRoute(CONSUMED_ROUTE)) + (batches == null ? 0 : batches.recordsDone());
    }

    public double duplicates() {
        ManagedProcessorMBean batchStep = managed().getManagedProcessor(BATCH_DUPLICATE_STEP);
        return completed(managed().getManagedProcessor(DUPLICATE_STEP)) + (batchStep == null ? 0 : completed(batchStep));
    }

    /** Conflicting duplicates: dead-lettered, the first record standing. */
    public double conflicts() {
        ManagedProcessorMBean batchStep = managed().getManagedProcessor(BATCH_CONFLICT_STEP);
        return completed(managed().getManagedProcessor(CONFLICT_STEP)) + (batchStep == null ? 0 : completed(batchStep));
    }

    public double deadLettered() {
        return completed(managed().getManagedRoute(DEAD_LETTER_ROUTE));
    }

    private ManagedCamelContext managed() {
        ManagedCamelContext managed = context.getCamelContextExtension().getContextPlugin(ManagedCamelContext.class);
        if (managed == null) {
            throw new IllegalStateException("Camel management is off (camel.main.jmx-enabled = false?):"
                    + " the metrics and the status page read Camel's route statistics");
        }
        return managed;
    }

    /** Bounce mails of one kind (hard, delayed, unmatched); 0 while the bounce mailbox is not read. */
    public double bounces(String kind) {
        return switch (kind) {
            case "hard" -> steps(BOUNCE_HARD_STEP);
            case "delayed" -> steps(BOUNCE_DELAYED_STEP);
            case "unmatched" -> steps(BOUNCE_UNMATCHED_STEP) + steps(BOUNCE_ASIDE_STEP);
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private double steps(String id) {
        ManagedProcessorMBean step = managed().getManagedProcessor(id);
        return step == null ? 0 : step.getExchangesCompleted();
    }

    /** NaN while the route or step is not (yet) there: unknown, not zero. */
    private static double completed(ManagedPerformanceCounterMBean counter) {
        return counter == null ? Double.NaN : counter.getExchangesCompleted();
    }
}
