package dev.notifier.delivery;

import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.camel.ExchangeProperty;
import org.apache.camel.Header;
import org.apache.camel.language.simple.Simple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Delivery's bookkeeping on the notification rows (claims, claim renewals, outcomes and the attempt
 * history), written with group commit: every sender thread hands its statements to one writer,
 * which runs whatever has queued up (up to {@code maxBatch} writes) as JDBC batches in one
 * transaction, and then answers each sender. A sender still waits for its own write to be
 * committed, exactly as with a statement of its own, so nothing about "claimed before sent" or
 * "recorded before done" changes; only the number of commits does: at 2,000 notifications/s,
 * one commit per claim and per outcome was most of PostgreSQL's work (WALWrite/WALSync waits).
 *
 * <p>The routes call these methods by name; their parameters say, by annotation, where in the
 * exchange each value is (bound once, rather than a {@code method(${...})} parsed on every call).
 *
 * <p>A write is all-or-nothing (an outcome and its attempt row commit together). When a
 * transaction of several writes fails, each write is retried in a transaction of its own, so one
 * bad write fails only its own sender, whose route error handler then decides what to do; when it
 * failed because the database is unreachable, every write of it fails at once.
 */
public class DeliveryLedger implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryLedger.class);

    /** Only a claim the fast path can trust without reading the row again: the row its own intake just wrote. */
    static final String CLAIM_FRESH = "UPDATE notifications"
            + " SET status = 'SENDING', attempts = 1, claimed_until = ?, claim_token = ?, updated_at = ?"
            + " WHERE event_id = ? AND channel = ? AND status = 'PENDING' AND attempts = 0 AND created_at = ?";
    /** Fenced by the token: a claim that expired and was taken over is not renewed. */
    static final String RENEW = "UPDATE notifications SET claimed_until = ?"
            + " WHERE event_id = ? AND channel = ? AND status = 'SENDING' AND claim_token = ?";
    static final String MARK_SENT = "UPDATE notifications"
            + " SET status = 'SENT', sent_at = ?, updated_at = ?, claimed_until = NULL, last_error = NULL"
            + " WHERE event_id = ? AND channel = ?";
    static final String MARK_FAILED = "UPDATE notifications"
            + " SET status = 'FAILED', last_error = ?, updated_at = ?, claimed_until = NULL"
            + " WHERE event_id = ? AND channel = ? AND status = 'SENDING' AND claim_token = ?";
    static final String MARK_RETRY = "UPDATE notifications"
            + " SET status = 'PENDING', next_attempt_at = ?, last_error = ?, updated_at = ?, claimed_until = NULL"
            + " WHERE event_id = ? AND channel = ? AND status = 'SENDING' AND claim_token = ?";
    static final String RECORD_ATTEMPT = "INSERT INTO notification_attempts"
            + " (event_id, channel, attempt, outcome, error, finished_at) VALUES (?, ?, ?, ?, ?, ?)";

    /** Every statement the ledger runs (for checks such as "the demo's H2 accepts them all"). */
    public static List<String> statements() {
        return List.of(CLAIM_FRESH, RENEW, MARK_SENT, MARK_FAILED, MARK_RETRY, RECORD_ATTEMPT);
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final int maxBatch;
    private final BlockingQueue<Write> queue = new LinkedBlockingQueue<>();
    private Thread writer;
    private volatile boolean closed;

    public DeliveryLedger(DataSource dataSource, TransactionTemplate transactions, int maxBatch) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.transactions = transactions;
        this.maxBatch = Math.max(1, maxBatch);
    }

    /** PENDING → SENDING for a row intake wrote a moment ago and nobody tried yet; false when someone else has it. */
    public boolean claimFresh(@Simple("${body[eventId]}") Object eventId, @Simple("${body[channel]}") String channel,
            @Simple("${body[createdAt]}") Date createdAt, @Header("claimToken") String claimToken,
            @Header("claimUntil") Date claimUntil) {
        Date now = new Date();
        return write(new Statement(CLAIM_FRESH, claimUntil, claimToken, now, uuid(eventId), channel, createdAt))[0] == 1;
    }

    /** Extends this sender's claim right before it sends; false when the claim is no longer its own. */
    public boolean renew(@ExchangeProperty("eventId") Object eventId, @ExchangeProperty("channel") String channel,
            @ExchangeProperty("claimToken") String claimToken, @Header("claimUntil") Date claimUntil) {
        return write(new Statement(RENEW, claimUntil, uuid(eventId), channel, claimToken))[0] == 1;
    }

    public void sent(@ExchangeProperty("eventId") Object eventId, @ExchangeProperty("channel") String channel,
            @ExchangeProperty("attempt") int attempt, @Header("now") Date now) {
        write(new Statement(MARK_SENT, now, now, uuid(eventId), channel),
                attempt(eventId, channel, attempt, "SENT", null, now));
    }

    public void failed(@ExchangeProperty("eventId") Object eventId, @ExchangeProperty("channel") String channel,
            @ExchangeProperty("claimToken") String claimToken, @ExchangeProperty("attempt") int attempt,
            @Simple("${exchangeProperty.failure.reason}") String reason, @Header("now") Date now) {
        write(new Statement(MARK_FAILED, reason, now, uuid(eventId), channel, claimToken),
                attempt(eventId, channel, attempt, "FAILED", reason, now));
    }

    public void retry(@ExchangeProperty("eventId") Object eventId, @ExchangeProperty("channel") String channel,
            @ExchangeProperty("claimToken") String claimToken, @ExchangeProperty("attempt") int attempt,
            @Simple("${exchangeProperty.failure.reason}") String reason, @Header("nextAttemptAt") Date nextAttemptAt,
            @Header("now") Date now) {
        write(new Statement(MARK_RETRY, nextAttemptAt, reason, now, uuid(eventId), channel, claimToken),
                attempt(eventId, channel, attempt, "RETRY", reason, now));
    }

    private static Statement attempt(Object eventId, String channel, int attempt, String outcome, String error, Date now) {
        return new Statement(RECORD_ATTEMPT, uuid(eventId), channel, attempt, outcome, error, now);
    }

    /** Writes waiting for the writer (not counting the transaction it runs now). */
    int queued() {
        return queue.size();
    }

    /** Stops the writer once what is queued is written; later writes run on the caller's thread. */
    @Override
    public void close() {
        closed = true;
        Thread running;
        synchronized (this) {
            running = writer;
        }
        if (running != null) {
            try {
                running.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Blocks until the statements are committed; their update counts, in order. */
    int[] write(Statement... statements) {
        Write write = new Write(List.of(statements), new CompletableFuture<>());
        if (closed) {
            runAlone(write);
        } else {
            startWriter();
            queue.add(write);
        }
        try {
            return write.done().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the delivery ledger", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private synchronized void startWriter() {
        if (writer == null) {
            writer = new Thread(this::writeLoop, "notifier-delivery-ledger");
            writer.setDaemon(true);
            writer.start();
        }
    }

    private void writeLoop() {
        List<Write> batch = new ArrayList<>(maxBatch);
        while (!closed || !queue.isEmpty()) {
            try {
                Write first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                runTogether(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | Error e) {
                // never leave a sender waiting: whatever was taken is answered
                batch.forEach(write -> write.done().completeExceptionally(e));
                LOG.error("delivery ledger writer: {}", e.toString());
            } finally {
                batch.clear();
            }
        }
    }

    void runTogether(List<Write> batch) {
        if (batch.size() == 1) {
            runAlone(batch.get(0));
            return;
        }
        List<int[]> counts;
        try {
            counts = transactions.execute(status -> execute(batch));
        } catch (RuntimeException e) {
            if (databaseUnreachable(e)) {
                // one by one would only wait for a connection once per write: answer them all now,
                // their route error handlers retry with backoff
                batch.forEach(write -> write.done().completeExceptionally(e));
                return;
            }
            LOG.debug("delivery ledger: a transaction of {} writes failed ({}), writing them one by one", batch.size(),
                    e.toString());
            batch.forEach(this::runAlone);
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).done().complete(counts.get(i));
        }
    }

    /** No connection, or a broken one: nothing about a single write, so no point in trying them one by one. */
    static boolean databaseUnreachable(RuntimeException e) {
        return e instanceof CannotCreateTransactionException || e instanceof DataAccessResourceFailureException
                || e instanceof TransientDataAccessResourceException;
    }

    private void runAlone(Write write) {
        try {
            write.done().complete(transactions.execute(status -> execute(List.of(write))).get(0));
        } catch (RuntimeException e) {
            write.done().completeExceptionally(e);
        }
    }

    /** Same SQL runs as one JDBC batch, in the order the SQL first appears; counts mapped back to each write. */
    private List<int[]> execute(List<Write> writes) {
        Map<String, List<int[]>> slotsBySql = new LinkedHashMap<>();
        Map<String, List<Object[]>> argsBySql = new LinkedHashMap<>();
        List<int[]> counts = new ArrayList<>(writes.size());
        for (int w = 0; w < writes.size(); w++) {
            List<Statement> statements = writes.get(w).statements();
            counts.add(new int[statements.size()]);
            for (int s = 0; s < statements.size(); s++) {
                Statement statement = statements.get(s);
                slotsBySql.computeIfAbsent(statement.sql(), sql -> new ArrayList<>()).add(new int[] {w, s});
                argsBySql.computeIfAbsent(statement.sql(), sql -> new ArrayList<>()).add(statement.args());
            }
        }
        argsBySql.forEach((sql, args) -> {
            int[] updated = args.size() == 1 ? new int[] {jdbc.update(sql, args.get(0))} : jdbc.batchUpdate(sql, args);
            List<int[]> slots = slotsBySql.get(sql);
            for (int i = 0; i < updated.length; i++) {
                counts.get(slots.get(i)[0])[slots.get(i)[1]] = updated[i];
            }
        });
        return counts;
    }

    private static UUID uuid(Object eventId) {
        return eventId instanceof UUID id ? id : UUID.fromString(String.valueOf(eventId));
    }

    record Statement(String sql, Object... args) {
    }

    record Write(List<Statement> statements, CompletableFuture<int[]> done) {
    }
}
