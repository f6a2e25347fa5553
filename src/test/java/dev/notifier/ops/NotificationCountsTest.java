package dev.notifier.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.event.Channel;
import dev.notifier.event.ChannelCatalog;
import dev.notifier.support.DatabaseTestBase;
import dev.notifier.support.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The gauges' database reads are cached, so scraping /metrics often cannot load the database. */
class NotificationCountsTest extends DatabaseTestBase {

    private DataSource dataSource;
    private Instant now = Instant.parse("2026-12-02T10:00:00Z");

    @BeforeEach
    void migrate() {
        dataSource = new DriverManagerDataSource(db.url(), TestDatabase.USER, "");
        Flyway.configure().dataSource(dataSource).load().migrate();
    }

    @Test
    void shouldReadTheDatabaseAgainOnlyAfterTheRefreshInterval() {
        NotificationCounts counts = new NotificationCounts(dataSource, Duration.ofSeconds(5), clock(), ChannelCatalog.standard().channels());
        insertSent();
        assertThat(counts.recent()).hasValueSatisfying(s -> assertThat(s.count(Channel.EMAIL, "SENT")).isEqualTo(1));

        insertSent();
        now = now.plusSeconds(4);
        assertThat(counts.recent()).hasValueSatisfying(s -> assertThat(s.count(Channel.EMAIL, "SENT")).isEqualTo(1));

        now = now.plusSeconds(2);
        assertThat(counts.recent()).hasValueSatisfying(s -> assertThat(s.count(Channel.EMAIL, "SENT")).isEqualTo(2));
        assertThat(counts.now().count(Channel.PUSH, "FAILED")).isZero();
    }

    @Test
    void shouldBeEmptyRatherThanStaleWhileTheDatabaseCannotBeRead() {
        NotificationCounts counts = new NotificationCounts(dataSource, Duration.ofSeconds(5), clock(), ChannelCatalog.standard().channels());
        insertSent();
        assertThat(counts.recent()).isPresent();

        db.jdbc().execute("ALTER TABLE notification_counts RENAME TO notification_counts_away");
        now = now.plusSeconds(6);

        assertThat(counts.recent()).isEmpty();
    }

    private void insertSent() {
        db.jdbc().update("INSERT INTO notifications (event_id, channel, status, user_id, transfer_id, payload,"
                + " created_at, updated_at, next_attempt_at) VALUES (?, 'EMAIL', 'SENT', 'u', 't', '{}', now(), now(), now())",
                UUID.randomUUID());
    }

    private Clock clock() {
        return new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now;
            }
        };
    }
}
