package dev.notifier.demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * An in-memory H2 database that speaks enough PostgreSQL for Notifier: the same Flyway migration
 * and the same SQL run on it (see the README for the subset both accept). Nothing to install, no
 * server, no files; it lives until {@link #close()}.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    /** H2 has no password-less default user name; any name is the owner of a new database. */
    public static final String USER = "sa";

    private final String url;

    private EmbeddedDatabase(String url) {
        this.url = url;
    }

    public static EmbeddedDatabase create() {
        // PostgreSQL mode for ON CONFLICT DO NOTHING and friends; lower-case identifiers as
        // PostgreSQL folds them, so JDBC metadata (the schema guard) sees "notifications";
        // NULLs last in ascending order as in PostgreSQL; kept alive while no connection is open
        return new EmbeddedDatabase("jdbc:h2:mem:notifier-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH"
                + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
    }

    public String url() {
        return url;
    }

    @Override
    public void close() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, USER, "");
             Statement statement = connection.createStatement()) {
            statement.execute("SHUTDOWN");
        }
    }
}
