package dev.notifier.inbox;

import dev.notifier.event.TransferEvent;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.camel.Exchange;
import org.apache.camel.processor.idempotent.jdbc.JdbcMessageIdRepository;
import org.springframework.jdbc.core.RowCallbackHandler;
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
 *
 * <p>The first record of an event leaves its {@link Fingerprint} with the key. A later one with the
 * same key is compared with it: the same content is a duplicate, other content a conflict, named in
 * exchange property {@value #CONFLICT} for intake to dead-letter (after this transaction: the first
 * record stands).
 */
public final class InboxRepository extends JdbcMessageIdRepository {

    /** One inbox for one job: recording transfer-completed events. */
    public static final String PROCESSOR_NAME = "record-event";
    /** Why a record that repeats an eventId with other content goes to the DLQ: the fields that differ. */
    public static final String CONFLICT = "conflict";
    private static final String INSERT = "INSERT INTO inbox (processor_name, message_id, created_at, fingerprint)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING";
    static final String STORED = "SELECT fingerprint FROM inbox WHERE processor_name = ? AND message_id = ?";
    /**
     * {@link #INSERT} for a whole batch. Keys in sorted order: two batches that share keys then lock
     * them in the same order and one waits for the other, instead of each holding a key the other
     * needs (a deadlock); within one key the first record (ordinality) is the one kept.
     */
    private static final String INSERT_ALL = "INSERT INTO inbox (processor_name, message_id, created_at, fingerprint)"
            + " SELECT ?, key, ?, fingerprint FROM unnest(CAST(? AS varchar[]), CAST(? AS bytea[]))"
            + " WITH ORDINALITY AS record (key, fingerprint, n)"
            + " ORDER BY key, n ON CONFLICT DO NOTHING RETURNING message_id";
    private static final String STORED_ALL = "SELECT message_id, fingerprint FROM inbox"
            + " WHERE processor_name = ? AND message_id = ANY(CAST(? AS varchar[]))";

    private final List<String> addressFields;

    public InboxRepository(DataSource dataSource, TransactionTemplate transaction, List<String> addressFields) {
        super(dataSource, transaction, PROCESSOR_NAME);
        this.addressFields = List.copyOf(addressFields);
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

    /** As {@link #add(String)}, with the fingerprint of the event the exchange holds; a conflict is named. */
    @Override
    public boolean add(Exchange exchange, String key) {
        TransferEvent event = exchange.getMessage().getBody(TransferEvent.class);
        if (event == null) {
            return add(key);
        }
        if (getJdbcTemplate().update(INSERT, PROCESSOR_NAME, key, new Timestamp(System.currentTimeMillis()),
                Fingerprint.of(event)) == 1) {
            return true;
        }
        // a new statement, so it sees the row of a racing transaction that has just committed
        List<byte[]> stored = getJdbcTemplate().queryForList(STORED, byte[].class, PROCESSOR_NAME, key);
        conflict(stored.isEmpty() ? null : stored.get(0), event, addressFields)
                .ifPresent(reason -> exchange.setProperty(CONFLICT, reason));
        return false;
    }

    /**
     * {@link #add(Exchange, String)} for a {@link RecordBatch}, in the caller's transaction (record-batch's):
     * one insert for every key, which returns only the keys it added; the batch keeps those events. A
     * key the inbox had, or that came twice in this batch, is a duplicate when its content is the same
     * as the stored first record's, otherwise a conflict the batch sets aside for the DLQ.
     */
    public void addAll(RecordBatch batch) {
        Timestamp recordedAt = new Timestamp(batch.getRecordedAt().getTime());
        List<String> inserted = getJdbcTemplate().query(connection -> {
            PreparedStatement insert = connection.prepareStatement(INSERT_ALL);
            insert.setString(1, PROCESSOR_NAME);
            insert.setTimestamp(2, recordedAt);
            insert.setArray(3, connection.createArrayOf("varchar", batch.getEventIds()));
            insert.setArray(4, connection.createArrayOf("bytea", batch.getFingerprints()));
            return insert;
        }, (row, n) -> row.getString(1));
        batch.keepNew(inserted);
        String[] duplicates = batch.getDuplicateIds();
        if (duplicates.length == 0) {
            return;
        }
        Map<String, byte[]> stored = new HashMap<>();
        getJdbcTemplate().query(connection -> {
            PreparedStatement select = connection.prepareStatement(STORED_ALL);
            select.setString(1, PROCESSOR_NAME);
            select.setArray(2, connection.createArrayOf("varchar", duplicates));
            return select;
        }, (RowCallbackHandler) row -> stored.put(row.getString(1), row.getBytes(2)));
        batch.setAsideConflicts(event -> conflict(stored.get(event.getEventIdText()), event, addressFields));
    }

    /** "conflict: amount, recipient.email" when the event differs from the stored fingerprint's. */
    static java.util.Optional<String> conflict(byte[] stored, TransferEvent event, List<String> addressFields) {
        if (stored == null) {
            return java.util.Optional.empty();
        }
        List<String> fields = Fingerprint.differences(stored, event, addressFields);
        return fields.isEmpty() ? java.util.Optional.empty()
                : java.util.Optional.of("conflict: " + String.join(", ", fields));
    }
}
