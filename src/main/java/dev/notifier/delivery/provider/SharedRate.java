package dev.notifier.delivery.provider;

import dev.notifier.delivery.SendDeadline;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * A provider's rate for the whole deployment: at most {@code perSecond} sends a second, however many
 * instances run, held through one PostgreSQL row per provider ({@code provider_rate}).
 *
 * <p>The second is cut into ten slots of 100 ms by the database's clock, each with a tenth of the
 * rate (so any 1-s window, aligned or not, sees at most the rate and one slot more). An instance takes
 * permits for the current slot a few at a time in one UPDATE, uses them locally, and when the slot's
 * budget is spent waits for the next slot. Nothing is registered per instance: one joining or leaving
 * changes nothing, and one killed leaves at most the permits it held for 100 ms unused.
 */
public final class SharedRate {

    static final int SLOTS_PER_SECOND = 10;

    /**
     * One statement: the slot by the database's clock, its budget (a tenth of the rate, the remainder
     * spread over the second), what is left of it after the grants so far, and the grant.
     */
    private static final String GRANT = """
            WITH clock AS (SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms),
                 slot AS (SELECT ms / 100 AS slot, 100 - ms % 100 AS left_ms,
                                 ((ms / 100 % 10 + 1) * ?::bigint) / 10 - (ms / 100 % 10 * ?::bigint) / 10 AS budget
                            FROM clock),
                 cur AS (SELECT r.provider, slot.slot, slot.left_ms,
                                    CASE WHEN r.slot > slot.slot THEN 0
                                         WHEN r.slot = slot.slot THEN GREATEST(slot.budget - r.used, 0)
                                         ELSE slot.budget END AS available
                               FROM provider_rate r, slot WHERE r.provider = ? FOR UPDATE OF r)
            UPDATE provider_rate r
               SET slot = GREATEST(r.slot, cur.slot),
                   used = CASE WHEN r.slot >= cur.slot THEN r.used ELSE 0 END + LEAST(?, cur.available)
              FROM cur
             WHERE r.provider = cur.provider
            RETURNING LEAST(?, cur.available) AS granted, cur.left_ms
            """;

    private final DataSource dataSource;
    private final String provider;
    private final int perSecond;
    private final int chunk;
    private final ReentrantLock lock = new ReentrantLock();
    private int permits;
    private long permitsUntilNanos;

    public SharedRate(DataSource dataSource, String provider, int perSecond) {
        if (perSecond <= 0) {
            throw new IllegalArgumentException("the rate of " + provider + " must be positive: " + perSecond);
        }
        this.dataSource = dataSource;
        this.provider = provider;
        this.perSecond = perSecond;
        // a quarter of a slot's budget per UPDATE: few round trips, and the slot shared among instances
        this.chunk = Math.max(1, (perSecond + 4 * SLOTS_PER_SECOND - 1) / (4 * SLOTS_PER_SECOND));
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO provider_rate (provider, slot, used) VALUES (?, 0, 0) ON CONFLICT (provider) DO NOTHING")) {
            insert.setString(1, provider);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot set up the shared rate of " + provider + ": " + e.getMessage(), e);
        }
    }

    public int perSecond() {
        return perSecond;
    }

    /**
     * Takes one send's permit, waiting for a slot with budget left for at most {@code maxWait} (and
     * never past this thread's send deadline).
     *
     * @throws SendDeadline.TooLateToSend when no permit came in time: nothing was sent
     */
    public void acquire(Duration maxWait) throws SendDeadline.TooLateToSend {
        long giveUpAt = System.nanoTime() + maxWait.toNanos();
        try {
            if (!lock.tryLock(maxWait.toNanos(), TimeUnit.NANOSECONDS)) {
                throw tooLate(maxWait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw tooLate(maxWait);
        }
        try {
            while (true) {
                long now = System.nanoTime();
                if (permits > 0 && now < permitsUntilNanos) {
                    permits--;
                    return;
                }
                if (now >= giveUpAt) {
                    throw tooLate(maxWait);
                }
                long[] grant = grant();
                permits = (int) grant[0];
                permitsUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(grant[1]);
                if (permits == 0) {
                    // this slot is spent, by us or another instance: wait for the next one
                    LockSupport.parkNanos(Math.min(permitsUntilNanos, giveUpAt) - System.nanoTime() + 200_000);
                    if (Thread.interrupted()) {
                        Thread.currentThread().interrupt();
                        throw tooLate(maxWait);
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** {granted permits, milliseconds left in their slot}. */
    private long[] grant() throws SendDeadline.TooLateToSend {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(GRANT)) {
            statement.setLong(1, perSecond);
            statement.setLong(2, perSecond);
            statement.setString(3, provider);
            statement.setInt(4, chunk);
            statement.setInt(5, chunk);
            try (ResultSet row = statement.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("provider_rate has no row for " + provider);
                }
                return new long[] {row.getLong(1), Math.max(1, row.getLong(2))};
            }
        } catch (SQLException e) {
            // the database is where the budget lives: without it, nothing is sent (and nothing lost)
            throw new SendDeadline.TooLateToSend("request not sent: the shared rate of " + provider
                    + " could not be read from PostgreSQL: " + e.getMessage());
        }
    }

    private SendDeadline.TooLateToSend tooLate(Duration waited) {
        return new SendDeadline.TooLateToSend("request not sent: " + provider + " is at its rate of " + perSecond
                + "/s for the whole deployment, and no send slot came within " + waited.toMillis() + " ms");
    }
}
