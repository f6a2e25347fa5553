package dev.notifier.inbox;

import javax.sql.DataSource;
import org.apache.camel.processor.idempotent.jdbc.JdbcMessageIdRepository;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Camel's JDBC idempotent repository pointed at our {@code inbox} table, sharing the route's
 * transaction so the inbox key and the notification rows commit or roll back together.
 *
 * <p>The insert is {@code ON CONFLICT DO NOTHING}: when two consumers race on one eventId, the
 * loser's insert affects no row and Camel reports a clean duplicate, instead of a unique violation
 * that would abort the PostgreSQL transaction (25P02) and roll back the loser's whole unit.
 */
public final class InboxRepository {

    /** One inbox for one job: recording transfer-completed events. */
    public static final String PROCESSOR_NAME = "record-event";

    private InboxRepository() {
    }

    public static JdbcMessageIdRepository create(DataSource dataSource, TransactionTemplate transaction) {
        JdbcMessageIdRepository repository = new JdbcMessageIdRepository(dataSource, transaction, PROCESSOR_NAME);
        // the table comes from the Flyway migration; never setTableName(): it resets the SQL below
        repository.setCreateTableIfNotExists(false);
        repository.setTableExistsString("SELECT 1 FROM inbox WHERE 1 = 0");
        repository.setQueryString("SELECT COUNT(*) FROM inbox WHERE processor_name = ? AND message_id = ?");
        repository.setInsertString(
                "INSERT INTO inbox (processor_name, message_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
        repository.setDeleteString("DELETE FROM inbox WHERE processor_name = ? AND message_id = ?");
        repository.setClearString("DELETE FROM inbox WHERE processor_name = ?");
        return repository;
    }
}
