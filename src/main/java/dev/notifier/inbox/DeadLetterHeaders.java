package dev.notifier.inbox;

/**
 * The names of a DLQ record's headers. Notifier's own start with {@value #OWN}; a producer's header
 * that could be taken for one of them (or for an escaped one) is carried as {@value #ESCAPE} + its
 * name, so a record cannot arrive with a {@code notifier-truncated} or {@code notifier-error} of its
 * own making and have {@code dlq replay} (or an operator) believe it. Replay undoes the escape.
 */
public final class DeadLetterHeaders {

    public static final String OWN = "notifier-";
    public static final String ESCAPE = "producer:";
    public static final String ERROR = "notifier-error";
    public static final String SOURCE = "notifier-source";
    public static final String TRUNCATED = "notifier-truncated";

    private DeadLetterHeaders() {
    }

    /** A producer's header name as the DLQ carries it. */
    public static String escape(String name) {
        return name.startsWith(OWN) || name.startsWith(ESCAPE) ? ESCAPE + name : name;
    }

    /** The name the producer gave a header the DLQ carries, or null for one of Notifier's own. */
    public static String producerName(String name) {
        if (name.startsWith(OWN)) {
            return null;
        }
        return name.startsWith(ESCAPE) ? name.substring(ESCAPE.length()) : name;
    }
}
