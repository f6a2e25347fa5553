package dev.notifier.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.notifier.support.DatabaseTestBase;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link ColumnLimits} against the schema the migrations really create, on PostgreSQL. */
class ColumnLimitsTest extends DatabaseTestBase {

    private Map<String, Integer> boundedColumns;

    @BeforeEach
    void migrate() {
        db.migrate();
        boundedColumns = db.jdbc().queryForList("""
                        SELECT table_name || '.' || column_name AS name, character_maximum_length AS width
                        FROM information_schema.columns
                        WHERE table_schema = current_schema() AND character_maximum_length IS NOT NULL
                        AND table_name NOT IN ('flyway_schema_history', 'notification_counts')""").stream()
                .collect(Collectors.toMap(row -> (String) row.get("name"), row -> ((Number) row.get("width")).intValue()));
    }

    @Test
    void shouldMatchTheWidthsOfTheColumnsThatStoreEventFields() {
        assertThat(boundedColumns)
                .containsEntry("notifications.transfer_id", ColumnLimits.TRANSFER_ID)
                .containsEntry("notifications.user_id", ColumnLimits.USER_ID)
                .containsEntry("recipient_preferences.user_id", ColumnLimits.USER_ID);
    }

    @Test
    void shouldFitEveryEventIdAndChannelWithoutALimitOfTheirOwn() {
        // EventFields.uuid accepts only the canonical form
        int canonicalUuid = java.util.UUID.randomUUID().toString().length();
        // any channel configuration may name: Channel's own limit, not the three built in
        int longestChannel = new Channel("C".repeat(16)).name().length();
        assertThatThrownBy(() -> new Channel("C".repeat(17))).isInstanceOf(IllegalArgumentException.class);

        assertThat(boundedColumns.get("inbox.message_id")).isGreaterThanOrEqualTo(canonicalUuid);
        assertThat(boundedColumns.get("notifications.channel")).isGreaterThanOrEqualTo(longestChannel);
        assertThat(boundedColumns.get("notification_attempts.channel")).isGreaterThanOrEqualTo(longestChannel);
        assertThat(boundedColumns.get("recipient_preferences.channel")).isGreaterThanOrEqualTo(longestChannel);
    }

    /**
     * A new bounded column fails this test until someone has decided whether an event field goes
     * there (then it needs a limit in {@link ColumnLimits}) or not (then it belongs to this list).
     */
    @Test
    void shouldKnowEveryBoundedColumn() {
        assertThat(boundedColumns.keySet()).containsExactlyInAnyOrder(
                // event fields, held to their width by the parser
                "notifications.transfer_id", "notifications.user_id", "recipient_preferences.user_id",
                // a canonical UUID or a Channel name: fit by construction (see above)
                "inbox.message_id", "notifications.channel", "notification_attempts.channel",
                "recipient_preferences.channel",
                // written by the service itself, never from an event's text
                "inbox.processor_name", "notifications.status", "notification_attempts.outcome",
                "notifications.claim_token", "notification_attempts.claim_token",
                // a provider's name (email-primary, push-fallback, line-primary), never from an event
                "notifications.provider_pin", "notification_attempts.provider", "provider_rate.provider",
                // delivery failure reasons, cut to 1000 characters by DeliveryFailures
                "notifications.last_error", "notification_attempts.error",
                // the bounce mailbox (V13): a DSN's Message-ID, cut to 300 characters or a digest; the status an
                // RFC 3463 code or empty; the diagnostic cut to 300; the address an event's validated email
                "bounce_inbox.processor_name", "bounce_inbox.message_id", "email_suppressions.address",
                "email_suppressions.status", "email_suppressions.diagnostic",
                // tracing (V14): a traceparent the service formatted (55) and its trace id (32), never a record's
                // text (TraceParent parses a record's strictly and the span the service starts is what is stored)
                "notifications.trace_parent", "notification_attempts.trace_id");
    }
}
