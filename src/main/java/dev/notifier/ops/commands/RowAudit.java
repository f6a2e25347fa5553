package dev.notifier.ops.commands;

import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What {@code verify} checks on the notification rows alone: no (event, channel) twice, and nothing
 * the retry poller should have picked up long ago.
 */
final class RowAudit {

    private final JdbcTemplate jdbc;

    RowAudit(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Asked by GROUP BY although {@code UNIQUE (event_id, channel)} forbids it: the audit is for
     * databases someone may have altered, constraint included.
     */
    List<Finding> duplicates(Instant since) {
        return jdbc.query("""
                SELECT event_id, channel, COUNT(*) AS copies FROM notifications
                WHERE created_at >= ?
                GROUP BY event_id, channel HAVING COUNT(*) > 1
                ORDER BY event_id, channel""",
                (rs, i) -> new Finding("duplicate", rs.getString("event_id"), rs.getString("channel"),
                        rs.getInt("copies") + " rows for one (event, channel)"),
                Times.parameter(since));
    }

    /**
     * SENDING whose claim expired more than the grace ago (or that has no claim at all, which the
     * poller never takes over), and PENDING that has been due for more than the grace: either no
     * poller runs, or it cannot keep up.
     */
    List<Finding> stuck(Instant since, Instant overdueBefore) {
        return jdbc.query("""
                SELECT event_id, channel, status, attempts, claimed_until, next_attempt_at FROM notifications
                WHERE created_at >= ?
                AND ((status = 'SENDING' AND (claimed_until IS NULL OR claimed_until < ?))
                  OR (status = 'PENDING' AND next_attempt_at < ?))
                ORDER BY event_id, channel""",
                (rs, i) -> new Finding("stuck", rs.getString("event_id"), rs.getString("channel"),
                        rs.getString("status") + " after " + rs.getInt("attempts") + " attempt(s), "
                                + ("SENDING".equals(rs.getString("status"))
                                ? "claimed until " + Times.format(Times.column(rs, "claimed_until"))
                                : "due since " + Times.format(Times.column(rs, "next_attempt_at")))),
                Times.parameter(since), Times.parameter(overdueBefore), Times.parameter(overdueBefore));
    }
}
