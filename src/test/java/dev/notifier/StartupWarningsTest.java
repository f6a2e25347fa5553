package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.notifier.support.LogCapture;
import dev.notifier.support.PipelineTestBase;
import java.util.List;
import org.apache.camel.ServiceStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A clean start on healthy parts logs nothing Camel or Notifier asks someone to fix: no WARN or ERROR
 * from either, and in particular none of Camel's "compact notation" notices about a route file (every
 * route is written in canonical YAML). Both intakes, since each starts its own routes.
 */
class StartupWarningsTest extends PipelineTestBase {

    private boolean batch;

    @Override
    protected boolean batchIntake() {
        return batch;
    }

    @ParameterizedTest(name = "batch intake {0}")
    @ValueSource(booleans = {false, true})
    void shouldStartWithoutWarnings(boolean batchIntake) throws Exception {
        batch = batchIntake;
        int mark = LogCapture.mark();

        startNotifier();

        assertThat(notifier.context().getStatus()).isEqualTo(ServiceStatus.Started);
        List<LogCapture.Entry> logged = LogCapture.entriesSince(mark);
        assertThat(logged).as("the start was logged").anyMatch(e -> e.logger().startsWith("org.apache.camel"));
        assertThat(logged).as("notices about route files")
                .noneMatch(e -> e.line().contains("compact notation"));
        assertThat(logged).as("warnings from Camel or Notifier")
                .filteredOn(e -> e.level().isGreaterOrEqual(Level.WARN))
                .filteredOn(e -> e.logger().startsWith("org.apache.camel") || e.logger().startsWith("dev.notifier"))
                .isEmpty();
    }
}
