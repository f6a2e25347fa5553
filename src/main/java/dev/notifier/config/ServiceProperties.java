package dev.notifier.config;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.camel.CamelContext;
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

    private final CamelContext context;
    private final boolean owned;

    private ServiceProperties(CamelContext context, boolean owned) {
        this.context = context;
        this.owned = owned;
    }

    /** The running service's own properties (its overrides included); closing this closes nothing. */
    public static ServiceProperties of(CamelContext context) {
        return new ServiceProperties(context, false);
    }

    /** @param overrides values that win over the file, as {@code NotifierApplication.newMain} takes them */
    public static ServiceProperties load(Map<String, String> overrides) {
        return load(overrides, System::getenv);
    }

    /** As {@link #load(Map)}, reading {@code {{env:...}}} (and {@code _FILE}) from the given environment. */
    public static ServiceProperties load(Map<String, String> overrides, UnaryOperator<String> environment) {
        DefaultCamelContext context = new DefaultCamelContext();
        // a command's output is for the operator: no start/stop banner between its lines
        context.setStartupSummaryLevel(StartupSummaryLevel.Off);
        EnvironmentOrFile.install(context, environment);
        PropertiesComponent properties = context.getPropertiesComponent();
        properties.setLocation(ConfigLocations.properties());
        Properties wins = new Properties();
        wins.putAll(overrides);
        properties.setOverrideProperties(wins);
        return new ServiceProperties(context, true);
    }

    /** The value, or empty when the key is missing or its value blank. */
    public Optional<String> find(String key) {
        // through a placeholder with an empty default, so a failure to resolve (an unreadable
        // NAME_FILE, both NAME and NAME_FILE set) is an error, not a missing value
        return Optional.ofNullable(context.resolvePropertyPlaceholders("{{" + key + ":}}"))
                .filter(value -> !value.isBlank());
    }

    public String get(String key) {
        return find(key).orElseThrow(() -> new IllegalStateException("property " + key + " is not set"));
    }

    public String get(String key, String defaultValue) {
        return find(key).orElse(defaultValue);
    }

    public int getInt(String key, int defaultValue) {
        return Math.toIntExact(getLong(key, defaultValue));
    }

    public boolean getBoolean(String key, boolean defaultValue) {
        return Boolean.parseBoolean(get(key, String.valueOf(defaultValue)).strip());
    }

    public long getLong(String key, long defaultValue) {
        String value = get(key, String.valueOf(defaultValue));
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("property " + key + " is not a number: " + value);
        }
    }

    /** An age or period written as {@code 30d}, {@code 12h}, {@code 15m}, {@code 45s}; empty when unset. */
    public Optional<java.time.Duration> findDuration(String key) {
        return find(key).map(text -> {
            try {
                return Durations.parse(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("property " + key + ": " + e.getMessage(), e);
            }
        });
    }

    @Override
    public void close() {
        if (owned) {
            // never started, so stopping it is stopping nothing: close() only declares IOException
            context.stop();
        }
    }

    /**
     * What an incoming event is held to, from {@code notifier.event.*} (the transferId pattern included),
     * {@code notifier.smtp.utf8} and
     * the channels in use ({@code notifier.channels}, {@code notifier.channel.<channel>.address}).
     */
    public dev.notifier.event.EventRules eventRules() {
        return new dev.notifier.event.EventRules(getInt("notifier.event.max-bytes", 65_536),
                getBoolean("notifier.smtp.utf8", false),
                findDuration("notifier.event.max-past").orElse(dev.notifier.event.EventRules.DEFAULT_MAX_PAST),
                findDuration("notifier.event.max-future").orElse(dev.notifier.event.EventRules.DEFAULT_MAX_FUTURE),
                java.time.Clock.systemUTC(),
                channels(),
                transferIds());
    }

    /** {@code notifier.event.transfer-id-pattern}: a pattern that is no regular expression stops the start, named. */
    private dev.notifier.event.TransferIds transferIds() {
        return dev.notifier.event.TransferIds.matching(get(dev.notifier.event.TransferIds.PROPERTY,
                dev.notifier.event.TransferIds.DEFAULT_PATTERN));
    }

    /** The channels in use and each one's address field ({@code notifier.channels}, {@code notifier.channel.<channel>.address}). */
    public dev.notifier.event.ChannelCatalog channels() {
        return dev.notifier.event.ChannelCatalog.from(get("notifier.channels", "EMAIL,PUSH,LINE"), this::find);
    }
}
