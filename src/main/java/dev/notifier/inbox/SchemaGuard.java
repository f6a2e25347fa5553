package dev.notifier.inbox;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * Refuses to start on a {@code notifications} table whose uniqueness is at the wrong grain.
 * {@code UNIQUE (event_id)} looks right and silently kills the second, legitimate notification
 * of a fan-out; a table without {@code UNIQUE (event_id, channel)} has no last line against a
 * second delivery. Either is a misconfiguration nobody should discover in production.
 */
public final class SchemaGuard {

    private static final Set<String> EVENT_AND_CHANNEL = Set.of("event_id", "channel");

    private SchemaGuard() {
    }

    public static void check(DataSource dataSource) throws SQLException {
        Map<String, Set<String>> uniqueIndexes = uniqueIndexes(dataSource, "notifications");
        for (Map.Entry<String, Set<String>> index : uniqueIndexes.entrySet()) {
            Set<String> columns = index.getValue();
            if (columns.contains("event_id") && !columns.contains("channel")) {
                throw new IllegalStateException("Refusing to start: table notifications has unique index/constraint '"
                        + index.getKey() + "' on " + columns + " without channel. One event fans out to several"
                        + " channels; uniqueness must be UNIQUE (event_id, channel). Drop '" + index.getKey() + "'.");
            }
        }
        if (!uniqueIndexes.containsValue(EVENT_AND_CHANNEL)) {
            throw new IllegalStateException("Refusing to start: table notifications lacks UNIQUE (event_id, channel),"
                    + " the database's guarantee against a second notification per (event, channel). Found unique"
                    + " indexes: " + uniqueIndexes);
        }
    }

    static Map<String, Set<String>> uniqueIndexes(DataSource dataSource, String table) throws SQLException {
        Map<String, Set<String>> indexes = new TreeMap<>();
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData meta = connection.getMetaData();
            String name = meta.storesUpperCaseIdentifiers() ? table.toUpperCase(Locale.ROOT) : table;
            try (ResultSet rs = meta.getIndexInfo(connection.getCatalog(), connection.getSchema(), name, true, false)) {
                while (rs.next()) {
                    String index = rs.getString("INDEX_NAME");
                    String column = rs.getString("COLUMN_NAME");
                    if (index != null && column != null && !rs.getBoolean("NON_UNIQUE")) {
                        Set<String> columns = indexes.computeIfAbsent(index, k -> new HashSet<>());
                        columns.add(column.toLowerCase(Locale.ROOT));
                        // a partial index is unique only inside its WHERE: never the (event_id, channel) guarantee
                        String filter = rs.getString("FILTER_CONDITION");
                        if (filter != null) {
                            columns.add("where " + filter);
                        }
                    }
                }
            }
        }
        if (indexes.isEmpty()) {
            throw new IllegalStateException("Refusing to start: table notifications not found or has no unique index");
        }
        return indexes;
    }
}
