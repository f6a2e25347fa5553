package dev.notifier.delivery;

import java.util.List;

/**
 * The life of a {@code notifications} row, every transition with its SQL, in one place.
 *
 * <pre>
 *              intake (inbox transaction)
 *                      |  INSERT_CLAIMED: born SENDING, claimed by the instance that recorded it
 *                      v
 *   PENDING --CLAIM_DUE--> SENDING --MARK_SENT--> SENT
 *      ^                    |   |
 *      |  RELEASE (not      |   +--MARK_FAILED--> FAILED   (rejected for good, or out of attempts or age)
 *      |  handed to a       |
 *      |  sender)           +--MARK_RETRY--> PENDING      (transient: next_attempt_at after a backoff)
 *      +----------------------+
 *   PENDING or SENDING past max-age or max-attempts --EXPIRE--> FAILED (never sent again)
 * </pre>
 *
 * A claim is a lease ({@code claimed_until}) with a fencing token ({@code claim_token}): a SENDING row
 * whose lease ran out belongs to a sender that died, and CLAIM_DUE takes it over; every write of a
 * sender after its claim is fenced by its token, MARK_SENT included, so a sender that lost its claim
 * changes nothing: the row's outcome is its current claim's. (A send never outlives its claim, see
 * SendDeadline; the fence is for a sender whose outcome could not be recorded in time.) Its attempt
 * is still recorded, marked {@code claim_lost}. Times are bound from Java, never {@code now()}.
 */
public final class NotificationStates {

    /** A new event's row, claimed at birth: the instance that recorded it sends it at once, no second write. */
    /**
     * Every row of an intake transaction in one statement, one array per column; RETURNING says which
     * were inserted (a row that exists is left alone), whatever the driver reports for a batch: with
     * {@code reWriteBatchedInserts=true} PgJDBC answers SUCCESS_NO_INFO (-2) for every row of a
     * rewritten batch, inserted or not.
     */
    public static final String INSERT_CLAIMED = "INSERT INTO notifications (event_id, channel, status, attempts,"
            + " user_id, transfer_id, payload, created_at, updated_at, next_attempt_at, claimed_until, claim_token,"
            + " trace_parent)"
            + " SELECT CAST(event_id AS uuid), channel, 'SENDING', 1, user_id, transfer_id, payload, ?, ?, ?, ?, ?,"
            + " trace_parent FROM unnest(CAST(? AS varchar[]), CAST(? AS varchar[]), CAST(? AS varchar[]),"
            + " CAST(? AS varchar[]), CAST(? AS varchar[]), CAST(? AS varchar[]))"
            + " AS row (event_id, channel, user_id, transfer_id, payload, trace_parent)"
            + " ON CONFLICT DO NOTHING RETURNING event_id, channel";
    /** Back to the retry poller, untried, due a little later: a claim that never reached a sender (its queue stayed full). */
    static final String RELEASE = "UPDATE notifications SET status = 'PENDING', attempts = attempts - 1,"
            + " next_attempt_at = ?, claimed_until = NULL, claim_token = NULL, updated_at = ?"
            + " WHERE event_id = ? AND channel = ? AND status = 'SENDING' AND claim_token = ?";
    /** Fenced by the token: a claim that expired and was taken over is not renewed. */
    static final String RENEW = "UPDATE notifications SET claimed_until = ?"
            + " WHERE event_id = ? AND channel = ? AND status = 'SENDING' AND claim_token = ?";
    public static final String MARK_SENT = "UPDATE notifications"
            + " SET status = 'SENT', sent_at = ?, updated_at = ?, claimed_until = NULL, last_error = NULL, provider_pin = NULL"
            + " WHERE event_id = ? AND channel = ? AND status = 'SENDING' AND claim_token = ?";
    static final String MARK_FAILED = "UPDATE notifications"
            + " SET status = 'FAILED', last_error = ?, updated_at = ?, claimed_until = NULL, provider_pin = NULL"
            + " WHERE event_id = ? AND channel = ? AND status = 'SENDING' AND claim_token = ?";
    static final String MARK_RETRY = "UPDATE notifications"
            + " SET status = 'PENDING', next_attempt_at = ?, last_error = ?, updated_at = ?, claimed_until = NULL,"
            + " provider_pin = ? WHERE event_id = ? AND channel = ? AND status = 'SENDING' AND claim_token = ?";
    /**
     * Each attempt that reached an outcome, for the event's history, with its claim; written with that
     * outcome, and marked {@code claim_lost} when the claim had been taken over so the outcome did not count.
     */
    static final String RECORD_ATTEMPT = "INSERT INTO notification_attempts"
            + " (event_id, channel, attempt, outcome, error, finished_at, claim_token, claim_lost, provider, trace_id)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    /**
     * The retry poller's batch: due retries and expired claims of the channels whose senders run,
     * disjoint between pollers (SKIP LOCKED).
     */
    public static String findDue(int channels) {
        return "SELECT event_id, channel, status, attempts, payload, created_at, budget_from, budget_attempts, provider_pin,"
                + " trace_parent"
                + " FROM notifications"
                + " WHERE ((status = 'PENDING' AND next_attempt_at <= ?) OR (status = 'SENDING' AND claimed_until < ?))"
                + " AND channel IN (" + String.join(", ", java.util.Collections.nCopies(channels, "?")) + ")"
                + " ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED";
    }
    public static final String CLAIM_DUE = "UPDATE notifications SET status = 'SENDING', attempts = attempts + 1,"
            + " claimed_until = ?, claim_token = ?, updated_at = ? WHERE event_id = ? AND channel = ?";
    static final String EXPIRE = "UPDATE notifications SET status = 'FAILED', last_error = ?, claimed_until = NULL,"
            + " updated_at = ? WHERE event_id = ? AND channel = ?";

    /**
     * 64 random bits per process, then a counter: unique across instances and restarts without a
     * SecureRandom call per claim ({@code UUID.randomUUID()} was 2.2 % of intake's CPU).
     */
    private static final String TOKEN_PREFIX = String.format("%016x-", new java.security.SecureRandom().nextLong());
    private static final java.util.concurrent.atomic.AtomicLong TOKENS = new java.util.concurrent.atomic.AtomicLong();

    private NotificationStates() {
    }

    /**
     * A fresh fencing token, one per claim (an intake's insert, a poll). Never an exchange id: the
     * retry poller drains a backlog in a loop on one exchange, and a token reused by a later poll of
     * the same row would let the sender that lost the claim renew it and send a second time.
     */
    public static String newClaimToken() {
        return TOKEN_PREFIX + Long.toHexString(TOKENS.incrementAndGet());
    }
}
