package dev.notifier.demo;

import java.util.List;
import java.util.Set;

/**
 * What became of the published records, as read from where it is true: Kafka (end offsets, the
 * group's committed offsets, the DLQ), the database (inbox and notification rows) and the peers.
 *
 * @param recordsPublished end offsets of the events topic
 * @param recordsCommitted the consumer group's committed offsets on it: records consumed for good
 * @param deadLettered     end offsets of the DLQ topic
 * @param eventsRecorded   rows in the inbox: distinct events accepted
 * @param emailsReceived   messages the SMTP server holds
 * @param pushesAccepted   pushes the two gateways accepted, each Idempotency-Key once
 * @param pushesFailedOver of those, the ones the fallback gateway accepted (the primary had answered 503)
 * @param lineDelivered    LINE messages the Messaging API accepted, each X-Line-Retry-Key once
 * @param bouncesPending   bounces the SMTP server has still to report, or Notifier to read from the mailbox
 */
record WorkSummary(long recordsPublished, long recordsCommitted, long deadLettered, long eventsRecorded,
                   List<NotificationCount> notifications, long emailsReceived, long pushesAccepted, long pushesFailedOver,
                   long lineDelivered, long bouncesPending) {

    private static final Set<String> UNFINISHED = Set.of("PENDING", "SENDING");

    /** Rows of one channel in one status, and the delivery attempts they took. */
    record NotificationCount(String channel, String status, long rows, long attempts) {
    }

    /** Every record committed, so the DLQ holds all it will; no notification waiting or in flight, no bounce unread. */
    boolean settled() {
        return recordsCommitted >= recordsPublished && unfinished() == 0 && bouncesPending == 0;
    }

    /** Every committed record was dead-lettered, recorded, or dropped as a duplicate by the inbox. */
    long duplicatesDropped() {
        return recordsCommitted - deadLettered - eventsRecorded;
    }

    long unfinished() {
        return notifications.stream().filter(n -> UNFINISHED.contains(n.status())).mapToLong(NotificationCount::rows).sum();
    }

    String progress() {
        return recordsCommitted + " of " + recordsPublished + " records committed, " + unfinished()
                + " notifications PENDING or SENDING, " + bouncesPending + " bounces unread";
    }

    String table(String headline) {
        StringBuilder text = new StringBuilder("\n" + headline + "\n");
        line(text, "records consumed (committed offsets)", recordsCommitted);
        line(text, "events recorded in the inbox", eventsRecorded);
        line(text, "duplicates dropped by the inbox", duplicatesDropped());
        line(text, "records dead-lettered (DLQ)", deadLettered);
        text.append(String.format("  %-10s %-8s %6s %9s%n", "channel", "status", "rows", "attempts"));
        for (NotificationCount n : notifications) {
            text.append(String.format("  %-10s %-8s %6d %9d%n", n.channel(), n.status(), n.rows(), n.attempts()));
        }
        line(text, "emails received by the SMTP server", emailsReceived);
        line(text, "pushes accepted by the push gateways", pushesAccepted);
        line(text, "  of them by the fallback (failover)", pushesFailedOver);
        line(text, "LINE messages accepted by the LINE API", lineDelivered);
        return text.toString();
    }

    private static void line(StringBuilder text, String label, long value) {
        text.append(String.format("  %-38s %5d%n", label, value));
    }
}
