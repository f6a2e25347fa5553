package dev.notifier.bounce;

import javax.sql.DataSource;
import org.apache.camel.processor.idempotent.jdbc.JdbcMessageIdRepository;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Camel's JDBC idempotent repository for the bounce mailbox: a DSN's key (its own Message-ID) in table
 * {@code bounce_inbox}, written in read-bounces' transaction with what the DSN changed. As the events'
 * inbox, the insert is {@code ON CONFLICT DO NOTHING}: two instances reading one DSN at once queue on the
 * key, and the second finds a duplicate instead of an aborted transaction.
 */
public final class BounceInbox extends JdbcMessageIdRepository {

    public static final String PROCESSOR_NAME = "read-bounces";

    public BounceInbox(DataSource dataSource, TransactionTemplate transaction) {
        super(dataSource, transaction, PROCESSOR_NAME);
        // the table comes from the Flyway migration; never setTableName(): it resets the SQL below
        setCreateTableIfNotExists(false);
        setTableExistsString("SELECT 1 FROM bounce_inbox WHERE 1 = 0");
        setQueryString("SELECT COUNT(*) FROM bounce_inbox WHERE processor_name = ? AND message_id = ?");
        setInsertString("INSERT INTO bounce_inbox (processor_name, message_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
        setDeleteString("DELETE FROM bounce_inbox WHERE processor_name = ? AND message_id = ?");
        setClearString("DELETE FROM bounce_inbox WHERE processor_name = ?");
    }

    /** True when the key is new: the insert added its row, in the caller's transaction. */
    @Override
    public boolean add(String key) {
        return insert(key) == 1;
    }
}
