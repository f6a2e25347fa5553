package dev.notifier.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Group commit: many threads' small writes in one transaction. Each caller hands its statements to
 * one writer thread, which runs whatever has queued up (up to {@code maxBatch} writes) as JDBC
 * batches in one transaction, then answers each caller; a caller still waits for its own write to
 * be committed, exactly as with a transaction of its own, so nothing about "claimed before sent" or
 * "recorded before done" changes, only the number of commits.
 *
 * <p>A write is all-or-nothing. When a shared transaction fails, each write is retried alone, so one
 * bad write fails only its own caller; when it failed because the database is unreachable, every
 * write of it fails at once (one by one would only wait for a connection once per write).
 */
final class GroupCommit implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommit.class);

    /**
     * One statement of a write. Its arguments may depend on what the write's earlier statements did:
     * they are worked out from those statements' update counts, in the same transaction, just before
     * it runs.
     */
    record Statement(String sql, Function<int[], Object[]> args) {
        Statement(String sql, Object... args) {
            this(sql, earlier -> args);
        }
    }

    record Write(List<Statement> statements, CompletableFuture<int[]> done) {
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final int maxBatch;
    private final BlockingQueue<Write> queue = new LinkedBlockingQueue<>();
    private Thread writer;
    private volatile boolean closed;

    GroupCommit(DataSource dataSource, TransactionTemplate transactions, int maxBatch) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.transactions = transactions;
        this.maxBatch = Math.max(1, maxBatch);
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
                // never leave a caller waiting: whatever was taken is answered
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
            counts = transactions.execute(status -> WriteRounds.run(jdbc, batch));
        } catch (RuntimeException e) {
            if (databaseUnreachable(e)) {
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

    /** No connection, or a broken one: nothing about a single write. */
    static boolean databaseUnreachable(RuntimeException e) {
        return e instanceof CannotCreateTransactionException || e instanceof DataAccessResourceFailureException
                || e instanceof TransientDataAccessResourceException;
    }

    private void runAlone(Write write) {
        try {
            write.done().complete(transactions.execute(status -> WriteRounds.run(jdbc, List.of(write))).get(0));
        } catch (RuntimeException e) {
            write.done().completeExceptionally(e);
        }
    }
}
