package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.RunningNotifier;
import org.junit.jupiter.api.Test;

/** The service refuses to run on a notifications table whose uniqueness is at the wrong grain. */
class StartupGuardTest extends PipelineTestBase {

    @Test
    void shouldRefuseToStartWhenSomeoneAddedUniqueEventIdAlone() throws Exception {
        startNotifier().close();
        notifier = null;
        db.jdbc().execute("CREATE UNIQUE INDEX notifications_event_uq ON notifications (event_id)");

        assertThatThrownBy(() -> RunningNotifier.start(settings()))
                .hasStackTraceContaining("notifications_event_uq")
                .hasStackTraceContaining("UNIQUE (event_id, channel)");
    }

    @Test
    void shouldRefuseToStartWithoutUniqueEventAndChannel() throws Exception {
        startNotifier().close();
        notifier = null;
        db.jdbc().execute("ALTER TABLE notifications DROP CONSTRAINT notifications_event_channel_uq");

        assertThatThrownBy(() -> RunningNotifier.start(settings()))
                .hasStackTraceContaining("lacks UNIQUE (event_id, channel)");
    }

    @Test
    void shouldApplyItsOwnMigrationsOnStart() throws Exception {
        startNotifier();

        assertThat(db.jdbc().queryForList("SELECT version FROM flyway_schema_history WHERE success", String.class))
                .contains("1");
        assertThat(db.count("SELECT count(*) FROM information_schema.tables WHERE table_name IN"
                + " ('inbox', 'notifications', 'recipient_preferences')")).isEqualTo(3);
    }
}
