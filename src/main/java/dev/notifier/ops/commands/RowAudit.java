package dev.notifier.ops.commands;

import java.time.Instant;
import java.util.function.Consumer;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What {@code verify} checks on the notification rows alone: nothing the retry poller should have
 * picked up long ago. Found through the (status, next_attempt_at) index: SENDING rows are the few in
 * flight, PENDING ones are read from the index up to the overdue bound, whatever the table's size.
 */
public final class RowAudit {

    public static final String STUCK = """
            SELECT event_id, channel, status, attempts, claimed_until, next_attempt_at FROM notifications
            WHERE ((status = 'SENDING' AND (claimed_until IS NULL OR claimed_until < ?))
               OR (status = 'PENDING' AND next_attempt_at < ?))
            AND created_at >= ?""";

    private final JdbcTemplate jdbc;

    RowAudit(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * SENDING whose claim expired more than the grace ago (or that has no claim at all, which the
     * poller never takes over), and PENDING that has been due for more than the grace: either no
     * poller runs, or it cannot keep up. Each is told to {@code findings} as it is read.
     */
    void stuck(Instant since, Instant overdueBefore, Consumer<Finding> findings) {
        jdbc.query(STUCK, rs -> {
            findings.accept(new Finding("stuck", rs.getString("event_id"), rs.getString("channel"),
                    rs.getString("status") + " after " + rs.getInt("attempts") + " attempt(s), "
                            + ("SENDING".equals(rs.getString("status"))
                            ? "claimed until " + Times.format(Times.column(rs, "claimed_until"))
                            : "due since " + Times.format(Times.column(rs, "next_attempt_at")))));
        }, Times.parameter(overdueBefore), Times.parameter(overdueBefore), Times.parameter(since));
    }
}
