package dev.notifier.inbox;

import javax.sql.DataSource;
import org.apache.camel.processor.idempotent.jdbc.JdbcMessageIdRepository;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Camel's JDBC idempotent repository pointed at our {@code inbox} table, sharing the route's
 * transaction so the inbox key and the notification rows commit or roll back together.
 *
 * <p>The insert is {@code ON CONFLICT DO NOTHING}: when two consumers race on one eventId, the
 * loser's insert affects no row and is a clean duplicate, instead of a unique violation that would
 * abort the PostgreSQL transaction (25P02) and roll back the loser's whole unit. Its row count is
 * the whole answer, so {@link #add} skips the {@code SELECT COUNT} Camel runs before it: one
 * statement less per event, and the primary key, not the look-up, decides either way.
 */
public final class InboxRepository extends JdbcMessageIdRepository {

    /** One inbox for one job: recording transfer-completed events. */
    public static final String PROCESSOR_NAME = "record-event";

    public InboxRepository(DataSource dataSource, TransactionTemplate transaction) {
        super(dataSource, transaction, PROCESSOR_NAME);
        // the table comes from the Flyway migration; never setTableName(): it resets the SQL below
        setCreateTableIfNotExists(false);
        setTableExistsString("SELECT 1 FROM inbox WHERE 1 = 0");
        setQueryString("SELECT COUNT(*) FROM inbox WHERE processor_name = ? AND message_id = ?");
        setInsertString("INSERT INTO inbox (processor_name, message_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
        setDeleteString("DELETE FROM inbox WHERE processor_name = ? AND message_id = ?");
        setClearString("DELETE FROM inbox WHERE processor_name = ?");
    }

    /**
     * True when the key is new: the insert added its row, in the caller's transaction (record-event's,
     * which the template's JDBC connection joins; wrapping it in a TransactionTemplate of its own
     * would only add bookkeeping to every event).
     */
    @Override
    public boolean add(String key) {
        return insert(key) == 1;
    }
}
