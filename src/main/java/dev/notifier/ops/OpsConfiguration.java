package dev.notifier.ops;

import dev.notifier.event.EventParser;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.PropertyInject;
import org.apache.camel.spi.Registry;
import org.apache.camel.support.service.ServiceSupport;

/**
 * The management port and what it serves, for the management routes (status-*, health-*, metrics):
 * the status page's beans, health (Camel's registry plus a database check) and Prometheus metrics. Everything here is
 * built from beans NotifierConfiguration bound before, so it is wired in {@link #configure} rather
 * than with {@code @BindToRegistry} methods that would run before the CamelContext is at hand.
 */
public class OpsConfiguration implements CamelConfiguration {

    @PropertyInject(value = "notifier.http.port", defaultValue = "8080")
    private int httpPort;
    @PropertyInject(value = "notifier.http.host", defaultValue = "127.0.0.1")
    private String httpHost;
    @PropertyInject(value = "notifier.http.password", defaultValue = "")
    private String httpPassword;
    @PropertyInject(value = "notifier.http.allowed-hosts", defaultValue = "")
    private String httpAllowedHosts;
    @PropertyInject(value = "notifier.http.tls-keystore", defaultValue = "")
    private String httpTlsKeystore;
    @PropertyInject(value = "notifier.http.tls-password", defaultValue = "")
    private String httpTlsPassword;
    @PropertyInject(value = "notifier.http.insecure", defaultValue = "false")
    private boolean httpInsecure;
    @PropertyInject(value = "notifier.health.database-timeout-seconds", defaultValue = "3")
    private int databaseTimeoutSeconds;
    @PropertyInject(value = "notifier.metrics.database-refresh-seconds", defaultValue = "5")
    private int databaseRefreshSeconds;

    @Override
    public void configure(CamelContext context) throws Exception {
        Registry registry = context.getRegistry();
        DataSource dataSource = registry.lookupByNameAndType("dataSource", DataSource.class);
        EventParser parser = registry.lookupByNameAndType("eventParser", EventParser.class);

        CamelStatistics statistics = new CamelStatistics(context);
        NotificationCounts counts = new NotificationCounts(dataSource, Duration.ofSeconds(databaseRefreshSeconds),
                Clock.systemUTC(), parser.channels().channels());
        StoredNotifications stored = new StoredNotifications(parser);

        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        NotifierMetrics metrics = new NotifierMetrics(statistics, counts,
                context.getRegistry().lookupByNameAndType("suppressions", dev.notifier.bounce.Suppressions.class));
        metrics.bindTo(meters);
        registry.bind("meterRegistry", meters);
        registry.bind("deliveryMetrics", new DeliveryMetrics(meters, parser.channels().channels()));

        registry.bind("databaseHealthCheck", new DatabaseHealthCheck(dataSource, Duration.ofSeconds(databaseTimeoutSeconds)));
        registry.bind("healthReport", new HealthReport(context));
        registry.bind("statusSummary", new StatusSummary(dataSource, counts, statistics, stored,
                () -> registry.lookupByNameAndType("peerInbox", PeerInbox.class)));
        registry.bind("eventHistory", new EventHistory(dataSource, stored));

        // started before the routes, so the platform-http consumers find its router
        ManagementAccess access = new ManagementAccess(httpHost.strip(), httpPassword,
                ManagementAccess.hostList(httpAllowedHosts), httpTlsKeystore.strip(), httpTlsPassword, httpInsecure);
        context.addService(ManagementServer.create(access, httpPort), true, true);
        context.addService(new ServiceSupport() {
            @Override
            protected void doStop() {
                metrics.close();
                meters.close();
            }
        }, true, true);
    }
}
