package dev.notifier.config;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.camel.StartupSummaryLevel;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.spi.PropertiesComponent;

/**
 * The service's configuration, read outside the service: the same application.properties (see
 * {@link ConfigLocations}), the same {@code {{env:NOTIFIER_*}}} placeholders and system-property
 * overrides, resolved by the same Camel PropertiesComponent. The CamelContext behind it is never
 * started; it only lends its placeholder resolution.
 */
public final class ServiceProperties implements AutoCloseable {

    private final DefaultCamelContext context;

    private ServiceProperties(DefaultCamelContext context) {
        this.context = context;
    }

    /** @param overrides values that win over the file, as {@code NotifierApplication.newMain} takes them */
    public static ServiceProperties load(Map<String, String> overrides) {
        DefaultCamelContext context = new DefaultCamelContext();
        // a command's output is for the operator: no start/stop banner between its lines
        context.setStartupSummaryLevel(StartupSummaryLevel.Off);
        PropertiesComponent properties = context.getPropertiesComponent();
        properties.setLocation(ConfigLocations.properties());
        Properties wins = new Properties();
        wins.putAll(overrides);
        properties.setOverrideProperties(wins);
        return new ServiceProperties(context);
    }

    /** The value, or empty when the key is missing or its value blank. */
    public Optional<String> find(String key) {
        return context.getPropertiesComponent().resolveProperty(key).filter(value -> !value.isBlank());
    }

    public String get(String key) {
        return find(key).orElseThrow(() -> new IllegalStateException("property " + key + " is not set"));
    }

    public String get(String key, String defaultValue) {
        return find(key).orElse(defaultValue);
    }

    public int getInt(String key, int defaultValue) {
        String value = get(key, String.valueOf(defaultValue));
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("property " + key + " is not a number: " + value);
        }
    }

    @Override
    public void close() {
        // never started, so stopping it is stopping nothing: close() only declares IOException
        context.stop();
    }
}
