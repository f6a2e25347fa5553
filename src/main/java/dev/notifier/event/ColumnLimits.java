package dev.notifier.event;

/**
 * The widths of the database columns that store an event's fields as they are, copied from the
 * Flyway migration ({@code src/main/resources/db/migration/V1__inbox_notifications_preferences.sql}).
 * The parser holds each such field to its column: a longer value would pass parsing and then fail
 * the insert on every redelivery, blocking its partition, instead of going to the DLQ with a reason.
 * A migration that narrows or widens one of these columns, or adds a bounded column for another
 * field, changes this class too; {@code ColumnLimitsTest} compares it with the migrated schema.
 *
 * <p>Lengths count UTF-16 units ({@link String#length()}); PostgreSQL counts code points, never
 * more, so a value within the limit always fits its column.
 *
 * <p>The other stored fields need no limit of their own: {@code eventId} is accepted only as a
 * canonical UUID (36 characters; {@code inbox.message_id} is {@code VARCHAR(100)},
 * {@code notifications.event_id} a {@code uuid}); a channel is a {@link Channel} name
 * ({@code VARCHAR(16)}); the whole event goes to {@code notifications.payload}, an unbounded
 * {@code VARCHAR}, and every text field is capped far below anything that matters there.
 */
public final class ColumnLimits {

    /** {@code notifications.transfer_id VARCHAR(255)}: the event's {@code transferId}. */
    public static final int TRANSFER_ID = 255;

    /**
     * {@code notifications.user_id VARCHAR(255)}: the event's {@code recipient.userId}, which is also
     * the key of {@code recipient_preferences.user_id VARCHAR(255)}.
     */
    public static final int USER_ID = 255;

    private ColumnLimits() {
    }
}
