package dev.notifier.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** A PostgreSQL database of its own for one test, on the server {@link TestPostgres} chose: created empty, dropped afterwards. */
public final class TestDatabase implements AutoCloseable {

    public static final String USER = System.getProperty("notifier.test.pg.user", "postgres");

    private final String name = "notifier_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    // a new connection per use: the database server may be restarted under a test (fault injection)
    private final DriverManagerDataSource dataSource;

    public TestDatabase() {
        admin("CREATE DATABASE " + name);
        dataSource = new DriverManagerDataSource(url(), USER, "");
    }

    public String url() {
        return TestPostgres.server() + name;
    }

    public String name() {
        return name;
    }

    /** Flyway's migrations from where the service packages them (AppliedMigrations.LOCATION), as on a first start. */
    public void migrate() {
        Flyway.configure().dataSource(url(), USER, "").locations("classpath:db/migration").load().migrate();
    }

    public JdbcTemplate jdbc() {
        return new JdbcTemplate(dataSource);
    }

    public List<Map<String, Object>> notifications() {
        return jdbc().queryForList("SELECT event_id, channel, status, attempts, last_error FROM notifications ORDER BY id");
    }

    /** The channels an event got a notification row for, sorted. */
    public List<String> channelsOf(UUID eventId) {
        return jdbc().queryForList("SELECT channel FROM notifications WHERE event_id = ? ORDER BY channel", String.class,
                eventId);
    }

    public void optOut(String userId, String channel) {
        jdbc().update("INSERT INTO recipient_preferences (user_id, channel, opted_out, updated_at) VALUES (?, ?, TRUE, now())",
                userId, channel);
    }

    public int count(String sql, Object... args) {
        return jdbc().queryForObject(sql, Integer.class, args);
    }

    /** Takes the database away under a running application, its open connections included. */
    public void dropWhileInUse() {
        admin("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    @Override
    public void close() {
        admin("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    private static void admin(String sql) {
        try (Connection c = DriverManager.getConnection(TestPostgres.server() + "postgres", USER, "");
             Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }
}
