package dev.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The commands read config/application.properties as the service does, placeholders resolved. */
class ServicePropertiesTest {

    @Test
    void shouldResolveTheEnvironmentPlaceholdersOfTheServicesFile() {
        try (ServiceProperties properties = ServiceProperties.load(Map.of())) {
            assertThat(properties.get("notifier.kafka.dlq-topic"))
                    .isEqualTo(System.getenv().getOrDefault("NOTIFIER_DLQ_TOPIC", "transfer.completed.dlq"));
            assertThat(properties.getInt("notifier.inbox.purge-batch-size", 1)).isEqualTo(1000);
        }
    }

    @Test
    void shouldLetOverridesWinAndTreatBlankAsUnset() {
        try (ServiceProperties properties = ServiceProperties.load(Map.of("notifier.kafka.group", "ops", "notifier.db.user", " "))) {
            assertThat(properties.get("notifier.kafka.group")).isEqualTo("ops");
            assertThat(properties.find("notifier.db.user")).isEmpty();
            assertThat(properties.get("notifier.db.user", "fallback")).isEqualTo("fallback");
        }
    }

    @Test
    void shouldNameAMissingOrMalformedProperty() {
        try (ServiceProperties properties = ServiceProperties.load(Map.of("notifier.inbox.purge-batch-size", "many"))) {
            assertThatThrownBy(() -> properties.get("notifier.nothing")).hasMessage("property notifier.nothing is not set");
            assertThatThrownBy(() -> properties.getInt("notifier.inbox.purge-batch-size", 1))
                    .hasMessage("property notifier.inbox.purge-batch-size is not a number: many");
        }
    }

    @Test
    void shouldReadTheTransferIdPatternAndRefuseOneThatIsNoRegularExpression() {
        try (ServiceProperties properties = ServiceProperties.load(Map.of())) {
            assertThat(properties.eventRules().transferIds()).hasToString("[A-Za-z0-9._:/-]{1,64}");
        }
        try (ServiceProperties properties = ServiceProperties.load(Map.of("notifier.event.transfer-id-pattern", "TRX-[0-9]{6}"))) {
            assertThat(properties.eventRules().transferIds()).hasToString("TRX-[0-9]{6}");
        }
        try (ServiceProperties properties = ServiceProperties.load(Map.of("notifier.event.transfer-id-pattern", "TRX-[0-9"))) {
            assertThatThrownBy(properties::eventRules)
                    .hasMessageStartingWith("notifier.event.transfer-id-pattern is not a regular expression");
        }
    }
}
