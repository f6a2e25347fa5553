package dev.notifier.ops;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Readiness only: without its database Notifier can neither record an event nor deliver one, but a
 * restart would not bring the database back, so liveness stays up.
 */
public final class DatabaseHealthCheck extends AbstractHealthCheck {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DatabaseHealthCheck.class);

    private final DataSource dataSource;
    private final Duration timeout;

    public DatabaseHealthCheck(DataSource dataSource, Duration timeout) {
        super("notifier", "database");
        this.dataSource = dataSource;
        this.timeout = timeout;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.setQueryTimeout((int) Math.max(1, timeout.toSeconds()));
            statement.execute("SELECT 1");
            builder.up();
        } catch (SQLException e) {
            // health is open to anyone who reaches the port: the driver's words (host, database,
            // user) go to the log, the answer only says what failed
            LOG.warn("readiness: SELECT 1 failed: {}", e.getMessage());
            builder.message("SELECT 1 failed (the service's log says why)").down();
        }
    }
}
