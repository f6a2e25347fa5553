package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.delivery.NotificationStates;
import dev.notifier.inbox.InboxPurge;
import dev.notifier.ops.EventHistory;
import dev.notifier.ops.NotificationCounts;
import dev.notifier.ops.StatusSummary;
import dev.notifier.ops.commands.InboxAudit;
import dev.notifier.ops.commands.RowAudit;
import dev.notifier.retention.NotificationPurge;
import dev.notifier.support.DatabaseTestBase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every query an operator, a scrape or the retry poller runs goes through an index, never a scan of
 * notifications, inbox or notification_attempts: its cost follows what it returns, at 60 M rows as at
 * 60. Checked the way PostgreSQL would choose at any size: sequential scans priced out
 * (enable_seqscan = off), so a plan that still has one has no index to use. The counts read two small
 * tables (V5) and are checked to stay off the big ones.
 */
class QueryPlanTest extends DatabaseTestBase {

    private static final String EVENT = "'0b9f3c1e-7a51-4c1e-9a43-2f1f5c9d8e01'";
    private static final String NOW = "now()";
    private static final List<String> BIG_TABLES = List.of("notifications", "inbox", "notification_attempts");

    @BeforeEach
    void fill() {
        db.jdbc().execute("""
                INSERT INTO inbox (processor_name, message_id, created_at)
                SELECT 'record-event', gen_random_uuid()::text, now() - (g % 30) * interval '1 day' FROM generate_series(1, 2000) g;
                INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload, created_at,
                    updated_at, next_attempt_at, sent_at)
                SELECT gen_random_uuid(), c, CASE WHEN g % 100 = 0 THEN 'PENDING' ELSE 'SENT' END, 1, 'u-' || g, 'TRX-' || g,
                    '{}', now() - (g % 30) * interval '1 day', now(), now(), now()
                FROM generate_series(1, 2000) g, unnest(ARRAY['EMAIL', 'PUSH']) c;
                INSERT INTO notification_attempts (event_id, channel, attempt, outcome, finished_at)
                SELECT event_id, channel, 1, 'SENT', now() FROM notifications;
                ANALYZE inbox; ANALYZE notifications; ANALYZE notification_attempts;
                """);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void shouldNotScanABigTable(String what, String sql) throws Exception {
        List<String> plan = plan(sql);

        assertThat(plan).as("plan of %s:%n%s", what, String.join("\n", plan)).noneMatch(QueryPlanTest::scansABigTable);
    }

    /** The check itself can fail: a filter no index serves is a sequential scan even priced out. */
    @org.junit.jupiter.api.Test
    void shouldSeeTheScanOfAQueryNoIndexServes() throws Exception {
        assertThat(plan("SELECT event_id FROM notifications WHERE transfer_id = 'TRX-1'")).anyMatch(QueryPlanTest::scansABigTable);
    }

    private static boolean scansABigTable(String planLine) {
        return BIG_TABLES.stream().anyMatch(table -> planLine.matches(".*Seq Scan on " + table + "\\b.*"));
    }

    private List<String> plan(String sql) throws Exception {
        List<String> plan = new ArrayList<>();
        try (Connection connection = db.jdbc().getDataSource().getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("SET enable_seqscan = off");
            try (ResultSet rs = statement.executeQuery("EXPLAIN " + sql)) {
                while (rs.next()) {
                    plan.add(rs.getString(1));
                }
            }
        }
        return plan;
    }

    static Stream<Arguments> queries() {
        return Stream.of(
                query("status page: latest rows", StatusSummary.LATEST_ROWS),
                query("status page and metrics: counts", NotificationCounts.BY_CHANNEL_AND_STATUS),
                query("status page and metrics: inbox size", NotificationCounts.INBOX_SIZE),
                query("event history: inbox key", EventHistory.RECEIVED, "'record-event'", "'" + EVENT.replace("'", "") + "'"),
                query("event history: rows", EventHistory.ROWS, EVENT),
                query("event history: attempts", EventHistory.ATTEMPTS, EVENT),
                query("retry poller: due retries and expired claims", NotificationStates.findDue(3), NOW, NOW,
                        "'EMAIL'", "'PUSH'", "'LINE'", "50"),
                query("retry poller: claim", NotificationStates.CLAIM_DUE, NOW, "'t'", NOW, EVENT, "'EMAIL'"),
                query("delivery: outcome", NotificationStates.MARK_SENT, NOW, NOW, EVENT, "'EMAIL'", "'t'"),
                query("retention: events to purge", NotificationPurge.FIND_EVENTS, "now() - interval '20 days'",
                        "now() - interval '20 days'", "1000"),
                query("retention: delete an event's rows", NotificationPurge.DELETE_ROWS, EVENT, NOW),
                query("inbox purge: a batch", InboxPurge.DELETE_BATCH, "now() - interval '20 days'", "1000"),
                query("verify: a page of inbox keys", InboxAudit.KEY_PAGE, "'record-event'", "now() - interval '1 day'",
                        "now() - interval '1 day'", "''", "1000"),
                query("verify: the page's rows", InboxAudit.ROWS_OF_KEYS, "ARRAY[" + EVENT + "::uuid]"),
                query("verify: stuck rows", RowAudit.STUCK, NOW, NOW, "now() - interval '1 day'"));
    }

    /** The statement with its {@code ?} replaced by the literals, in order. */
    private static Arguments query(String what, String sql, String... literals) {
        StringBuilder text = new StringBuilder();
        int next = 0;
        for (char c : sql.toCharArray()) {
            if (c == '?') {
                text.append(literals[next++]);
            } else {
                text.append(c);
            }
        }
        assertThat(next).as("literals for %s", what).isEqualTo(literals.length);
        return Arguments.of(what, text.toString());
    }
}
