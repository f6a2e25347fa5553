package dev.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;

/** A setting of push or LINE under its old prefix stops the start, named with its new one. */
class RenamedSettingsTest {

    @Test
    void shouldRefuseAnOldPushOrLineKeyNamingItsNewName() throws Exception {
        try (DefaultCamelContext context = contextWith("notifier.push.url", "http://gateway.internal/push")) {
            context.getPropertiesComponent().addOverrideProperty("notifier.line.token", "t");

            assertThatThrownBy(() -> RenamedSettings.refuse(context))
                    .hasMessageContaining("notifier.line.token is now notifier.channel.line.token")
                    .hasMessageContaining("notifier.push.url is now notifier.channel.push.url")
                    .hasMessageNotContaining("gateway.internal");
        }
    }

    @Test
    void shouldStartOnTheShippedConfigurationWhichUsesTheNewNamesOnly() throws Exception {
        try (DefaultCamelContext context = contextWith("notifier.channel.push.url", "http://gateway.internal/push")) {
            assertThat(context.getPropertiesComponent().loadProperties().stringPropertyNames())
                    .contains("notifier.channel.push.url", "notifier.channel.line.url");
            assertThatCode(() -> RenamedSettings.refuse(context)).doesNotThrowAnyException();
        }
    }

    private static DefaultCamelContext contextWith(String key, String value) {
        DefaultCamelContext context = new DefaultCamelContext();
        context.getPropertiesComponent().setLocation(ConfigLocations.properties());
        Properties overrides = new Properties();
        overrides.setProperty(key, value);
        context.getPropertiesComponent().setOverrideProperties(overrides);
        return context;
    }
}
