package dev.notifier.inbox;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.notifier.support.DatabaseTestBase;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Against a real PostgreSQL database: the guard reads PostgreSQL's own index metadata. */
class SchemaGuardTest extends DatabaseTestBase {

    private static final String EVENT_CHANNEL_CONSTRAINT = "notifications_event_channel_uq";

    /** Empty, as a database nobody migrated; the nested tests migrate it first. */
    @Override
    protected boolean migrated() {
        return false;
    }

    @Test
    void shouldRefuseADatabaseWithoutNotificationsTable() {
        assertThatThrownBy(() -> SchemaGuard.check(dataSource()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("notifications not found");
    }

    @Nested
    class OnTheMigratedSchema {

        @BeforeEach
        void migrate() {
            db.migrate();
        }

        @Test
        void shouldPass() {
            assertThatCode(() -> SchemaGuard.check(dataSource())).doesNotThrowAnyException();
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {
                "CREATE UNIQUE INDEX notifications_event_only ON notifications (event_id)",
                "ALTER TABLE notifications ADD CONSTRAINT notifications_event_only UNIQUE (event_id)",
                "CREATE UNIQUE INDEX notifications_event_only ON notifications (event_id, user_id)"})
        void shouldRefuseUniquenessOnEventIdWithoutChannel(String ddl) {
            db.jdbc().execute(ddl);

            assertThatThrownBy(() -> SchemaGuard.check(dataSource()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'notifications_event_only'")
                    .hasMessageContaining("UNIQUE (event_id, channel)");
        }

        @Test
        void shouldRefuseWhenEventChannelConstraintIsDropped() {
            db.jdbc().execute("ALTER TABLE notifications DROP CONSTRAINT " + EVENT_CHANNEL_CONSTRAINT);

            assertThatThrownBy(() -> SchemaGuard.check(dataSource()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("lacks UNIQUE (event_id, channel)");
        }

        @Test
        void shouldRefuseWhenEventChannelUniquenessIsWidenedByAnotherColumn() {
            db.jdbc().execute("ALTER TABLE notifications DROP CONSTRAINT " + EVENT_CHANNEL_CONSTRAINT);
            db.jdbc().execute("CREATE UNIQUE INDEX notifications_wide ON notifications (event_id, channel, status)");

            assertThatThrownBy(() -> SchemaGuard.check(dataSource()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("lacks UNIQUE (event_id, channel)");
        }

        @Test
        void shouldRefuseWhenEventChannelUniquenessIsOnlyPartial() {
            db.jdbc().execute("ALTER TABLE notifications DROP CONSTRAINT " + EVENT_CHANNEL_CONSTRAINT);
            db.jdbc().execute("CREATE UNIQUE INDEX notifications_partial ON notifications (event_id, channel)"
                    + " WHERE status <> 'FAILED'");

            assertThatThrownBy(() -> SchemaGuard.check(dataSource()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("lacks UNIQUE (event_id, channel)");
        }

        @Test
        void shouldAcceptEventChannelUniquenessAsAUniqueIndexInEitherColumnOrder() {
            db.jdbc().execute("ALTER TABLE notifications DROP CONSTRAINT " + EVENT_CHANNEL_CONSTRAINT);
            db.jdbc().execute("CREATE UNIQUE INDEX notifications_channel_event ON notifications (channel, event_id)");

            assertThatCode(() -> SchemaGuard.check(dataSource())).doesNotThrowAnyException();
        }
    }

    /** The test database's single connection, which close() leaves open. */
    private DataSource dataSource() {
        return db.jdbc().getDataSource();
    }
}
