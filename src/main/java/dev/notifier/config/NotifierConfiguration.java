package dev.notifier.config;

import dev.notifier.delivery.DeliverySchedule;
import dev.notifier.event.EventParser;
import java.time.Duration;
import org.apache.camel.CamelConfiguration;
import dev.notifier.trace.Tracing;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.Registry;
import org.apache.camel.spring.spi.SpringTransactionPolicy;

/**
 * Binds the beans the YAML routes refer to by name, built from application.properties in the order
 * they depend on each other, once no credential would go in clear ({@link CleartextCredentials}): the database, the rules an event is read by, the delivery clock, then
 * intake ({@link IntakeBeans}) and delivery ({@link DeliveryBeans}). Closed in the reverse order
 * once every route has stopped ({@link Shutdown}).
 */
public class NotifierConfiguration implements CamelConfiguration {

    @Override
    public void configure(CamelContext context) throws Exception {
        ServiceProperties p = ServiceProperties.of(context);
        // a setting that has moved is named, not silently ignored
        RenamedSettings.refuse(context);
        // before anything connects: no credential goes in clear to another host
        CleartextCredentials.check(context, p, p.channels());
        Registry registry = context.getRegistry();
        Shutdown shutdown = new Shutdown();
        Database database = shutdown.closeFirst(Database.open(p));
        registry.bind("dataSource", database.dataSource);
        registry.bind("transactionTemplate", database.transactions);
        // what transacted: {ref: required} means in the routes
        registry.bind("required", new SpringTransactionPolicy(database.transactions));
        // closed after every route and sender (so their last spans are exported), before the database
        Tracing tracing = shutdown.closeFirst(Tracing.configure(p::find));
        registry.bind("tracing", tracing);

        EventParser parser = new EventParser(p.eventRules());
        registry.bind("eventParser", parser);
        registry.bind("channelCatalog", parser.channels());
        DeliverySchedule schedule = new DeliverySchedule(Duration.ofMillis(p.getLong("notifier.delivery.retry-base-millis", 1000)),
                Duration.ofMillis(p.getLong("notifier.delivery.retry-max-millis", 300_000)),
                Duration.ofSeconds(p.getLong("notifier.delivery.lease-seconds", 180)),
                p.getInt("notifier.delivery.max-attempts", DeliverySchedule.DEFAULT_MAX_ATTEMPTS),
                p.findDuration("notifier.delivery.max-age").orElse(DeliverySchedule.DEFAULT_MAX_AGE));
        registry.bind("deliverySchedule", schedule);

        boolean bounces = new BounceBeans(context, p, database, parser).bind();
        DeliveryBeans delivery = new DeliveryBeans(context, p, database, parser, schedule, shutdown, tracing);
        delivery.bind(bounces ? null : BounceBeans.ROUTES);
        new IntakeBeans(context, p, database, parser, delivery.rows(), shutdown, tracing).bind();
        context.addService(shutdown, true, true);
    }
}
