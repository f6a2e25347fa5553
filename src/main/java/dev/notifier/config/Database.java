package dev.notifier.config;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.notifier.inbox.SchemaGuard;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The connection pool, migrated (Flyway) and checked (SchemaGuard) before anything may use it, and its transactions. */
final class Database implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger("dev.notifier.database");

    final HikariDataSource dataSource;
    final TransactionTemplate transactions;

    private Database(HikariDataSource dataSource) {
        this.dataSource = dataSource;
        this.transactions = new TransactionTemplate(new JdbcTransactionManager(dataSource));
    }

    static Database open(ServiceProperties p) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setPoolName("notifier");
        config.setJdbcUrl(requirePostgres(p.get("notifier.db.url")));
        config.setUsername(p.find("notifier.db.user").orElse(null));
        config.setPassword(p.find("notifier.db.password").orElse(null));
        config.setMaximumPoolSize(p.getInt("notifier.db.pool-size", 10));
        // fail fast on a dead database instead of parking consumer threads for 30 s
        config.setConnectionTimeout(5_000);
        config.setInitializationFailTimeout(-1);
        HikariDataSource created = new HikariDataSource(config);
        try {
            migrate(created);
            SchemaGuard.check(created);
        } catch (Exception | Error e) {
            created.close();
            throw e;
        }
        return new Database(created);
    }

    /**
     * The service keeps its inbox and notifications in PostgreSQL and nowhere else: a URL for another
     * database (an in-memory one above all, which would lose every key and row on exit and let every
     * redelivered event be sent again) is refused before anything connects.
     */
    static String requirePostgres(String url) {
        if (!url.startsWith("jdbc:postgresql:")) {
            String shown = url.length() > 40 ? url.substring(0, 40) + "..." : url;
            throw new IllegalStateException("NOTIFIER_DB_URL must be a PostgreSQL URL (jdbc:postgresql://host:port/database), not '"
                    + shown + "': Notifier keeps its inbox and notifications in PostgreSQL only");
        }
        return url;
    }

    /** Flyway's migrations, unless the database has every one of them already ({@link AppliedMigrations}). */
    static void migrate(DataSource dataSource) {
        if (AppliedMigrations.allApplied(dataSource)) {
            LOG.info("database schema has every migration this jar holds: Flyway not run");
            return;
        }
        Flyway.configure().dataSource(dataSource).locations("classpath:" + AppliedMigrations.LOCATION).load().migrate();
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
