package dev.notifier.delivery;

import static dev.notifier.delivery.NotificationStates.CLAIM_DUE;
import static dev.notifier.delivery.NotificationStates.EXPIRE;
import static dev.notifier.delivery.NotificationStates.MARK_FAILED;
import static dev.notifier.delivery.NotificationStates.MARK_RETRY;
import static dev.notifier.delivery.NotificationStates.MARK_SENT;
import static dev.notifier.delivery.NotificationStates.RECORD_ATTEMPT;
import static dev.notifier.delivery.NotificationStates.RELEASE;
import static dev.notifier.delivery.NotificationStates.RENEW;

import dev.notifier.delivery.GroupCommit.Statement;
import dev.notifier.event.Channel;
import dev.notifier.event.EventParser;
import dev.notifier.event.InvalidEventException;
import dev.notifier.event.TransferEvent;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Delivery's writes on the notification rows ({@link NotificationStates}): keeping a claim, each
 * attempt's outcome with its history row, handing a claim back, and the retry poller's batch. The
 * senders' writes go through one {@link GroupCommit} writer, so many senders share a commit.
 */
public class DeliveryLedger implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger("dev.notifier.delivery");

    private final GroupCommit writes;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final DeliverySchedule schedule;
    private final EventParser parser;

    public DeliveryLedger(DataSource dataSource, TransactionTemplate transactions, int maxBatch, DeliverySchedule schedule,
                          EventParser parser) {
        this.writes = new GroupCommit(dataSource, transactions, maxBatch);
        this.jdbc = new JdbcTemplate(dataSource);
        this.transactions = transactions;
        this.schedule = schedule;
        this.parser = parser;
    }

    /**
     * The claim this sender holds, right before it sends, with enough of it left for the send; null when
     * another sender has taken it over. A claim with more left than the longest send needs
     * ({@link DeliverySchedule#renewWithin}) cannot have been taken over and is kept as it is; one closer
     * to its end (it waited in a queue or for a provider) is renewed, fenced by its token.
     */
    public ClaimedNotification holdClaim(ClaimedNotification notification) {
        if (notification.claimedUntil().isAfter(Instant.now().plus(schedule.renewWithin()))) {
            return notification;
        }
        Instant until = schedule.claimUntil().toInstant();
        boolean renewed = writes.write(new Statement(RENEW, ts(until), notification.key().eventId(),
                notification.key().channel().name(), notification.claimToken()))[0] == 1;
        return renewed ? notification.renewedUntil(until) : null;
    }

    /** @return whether the claim was still this sender's: otherwise the row was left as its current claim has it */
    public boolean sent(ClaimedNotification n, Instant at, String provider) {
        return writes.write(new Statement(MARK_SENT, ts(at), ts(at), n.key().eventId(), n.key().channel().name(), n.claimToken()),
                attempt(n, "SENT", null, at, provider))[0] == 1;
    }

    /** @return whether the claim was still this sender's: otherwise the row was left as its current claim has it */
    public boolean failed(ClaimedNotification n, String reason, Instant at, String provider) {
        return writes.write(new Statement(MARK_FAILED, reason, ts(at), n.key().eventId(), n.key().channel().name(), n.claimToken()),
                attempt(n, "FAILED", reason, at, provider))[0] == 1;
    }

    /** @return whether the claim was still this sender's: otherwise the row was left as its current claim has it */
    /** As {@link #sent}; {@code pinnedTo}: the only provider the next attempt may ask (its outcome there is unknown), or null. */
    public boolean retry(ClaimedNotification n, String reason, Instant next, Instant at, String provider, String pinnedTo) {
        return writes.write(new Statement(MARK_RETRY, ts(next), reason, ts(at), pinnedTo, n.key().eventId(),
                n.key().channel().name(), n.claimToken()), attempt(n, "RETRY", reason, at, provider))[0] == 1;
    }

    /** A claim no sender took: back to PENDING, due at {@code retryAt}, the attempt it counted given back. */
    public void release(ClaimedNotification n, Instant retryAt) {
        writes.write(new Statement(RELEASE, ts(retryAt), ts(Instant.now()), n.key().eventId(), n.key().channel().name(),
                n.claimToken()));
    }

    /**
     * The retry poller's batch, in one short transaction: due retries and expired claims of the
     * given channels (those whose senders run), each claimed with this poll's own token,
     * except those past the age or attempt limit, which end here as FAILED and are not sent.
     *
     * @return how many rows were due (a full batch means there may be more), and the claimed ones
     */
    public DueBatch claimDue(int batchSize, java.util.Collection<String> channels) {
        if (channels.isEmpty()) {
            return new DueBatch(0, List.of(), false);
        }
        String claimToken = NotificationStates.newClaimToken();
        return transactions.execute(status -> {
            Instant now = Instant.now();
            Timestamp until = ts(schedule.claimUntil().toInstant());
            List<Object> args = new ArrayList<>(List.of(ts(now), ts(now)));
            args.addAll(channels);
            args.add(batchSize);
            List<DueRow> due = jdbc.query(NotificationStates.findDue(channels.size()), this::dueRow, args.toArray());
            List<Object[]> claims = new ArrayList<>();
            List<Object[]> expiries = new ArrayList<>();
            List<ClaimedNotification> claimed = new ArrayList<>();
            for (DueRow row : due) {
                String expired = schedule.expiredReason(java.util.Date.from(row.budget().from()),
                        row.attempts() - row.budget().attemptsBefore(), "SENDING".equals(row.status()));
                if (expired != null) {
                    expiries.add(new Object[] {expired, ts(now), row.key().eventId(), row.key().channel().name()});
                    LOG.warn("{} -> FAILED: {}", row.key(), expired);
                } else {
                    claims.add(new Object[] {until, claimToken, ts(now), row.key().eventId(), row.key().channel().name()});
                    claimed.add(row.claimed(claimToken, until.toInstant()));
                    LOG.info("{} -> SENDING (claimed by the retry poller, attempt {})", row.key(), row.attempts() + 1);
                }
            }
            if (!expiries.isEmpty()) {
                jdbc.batchUpdate(EXPIRE, expiries);
            }
            if (!claims.isEmpty()) {
                jdbc.batchUpdate(CLAIM_DUE, claims);
            }
            return new DueBatch(due.size(), claimed, due.size() == batchSize);
        });
    }

    /**
     * @param found   rows that were due, claimed or expired
     * @param claimed the claimed ones, for the hand-off (the batch is iterated as them)
     * @param more    the batch was full: more may be waiting, and the poller claims the next at once
     */
    public record DueBatch(int found, List<ClaimedNotification> claimed, boolean more) implements Iterable<ClaimedNotification> {

        @Override
        public java.util.Iterator<ClaimedNotification> iterator() {
            return claimed.iterator();
        }
    }

    private record DueRow(NotificationKey key, String status, int attempts, Instant createdAt, TransferEvent event,
                          String unreadable, ClaimedNotification.Budget budget, String pinnedProvider, String trace) {

        ClaimedNotification claimed(String token, Instant until) {
            return new ClaimedNotification(key, event, unreadable, attempts + 1, createdAt, token, until, budget,
                    pinnedProvider, trace);
        }
    }

    private DueRow dueRow(ResultSet rs, int i) throws SQLException {
        NotificationKey key = new NotificationKey(rs.getObject("event_id", UUID.class), Channel.of(rs.getString("channel")));
        TransferEvent event = null;
        String unreadable = null;
        try {
            event = parser.fromStored(rs.getString("payload"));
        } catch (InvalidEventException e) {
            unreadable = e.getMessage();
        }
        Instant createdAt = rs.getObject("created_at", OffsetDateTime.class).toInstant();
        OffsetDateTime resent = rs.getObject("budget_from", OffsetDateTime.class);
        return new DueRow(key, rs.getString("status"), rs.getInt("attempts"), createdAt, event, unreadable,
                new ClaimedNotification.Budget(resent == null ? createdAt : resent.toInstant(), rs.getInt("budget_attempts")),
                rs.getString("provider_pin"), rs.getString("trace_parent"));
    }

    /** The attempt's history row, written after its outcome: {@code claim_lost} when that outcome changed no row. */
    private static Statement attempt(ClaimedNotification n, String outcome, String error, Instant at, String provider) {
        return new Statement(RECORD_ATTEMPT, earlier -> new Object[] {n.key().eventId(), n.key().channel().name(), n.attempt(),
                outcome, error, ts(at), n.claimToken(), earlier[0] == 0, provider,
                dev.notifier.trace.TraceParent.traceId(n.trace())});
    }

    static Timestamp ts(Instant instant) {
        return Timestamp.from(instant);
    }

    /** Writes waiting for the writer (not counting the transaction it runs now). */
    int queued() {
        return writes.queued();
    }

    /** Stops the writer once what is queued is written; later writes run on the caller's thread. */
    @Override
    public void close() {
        writes.close();
    }
}
