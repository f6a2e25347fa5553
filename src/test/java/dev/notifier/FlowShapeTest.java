package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.model.IdempotentConsumerDefinition;
import org.apache.camel.model.LoadBalanceDefinition;
import org.apache.camel.model.Model;
import org.apache.camel.model.ProcessorDefinition;
import org.apache.camel.model.RecipientListDefinition;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.model.SplitDefinition;
import org.apache.camel.model.ToDefinition;
import org.apache.camel.model.TransactedDefinition;
import org.apache.camel.model.loadbalancer.FailoverLoadBalancerDefinition;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The flow a reader of routes/ must find there, not in Java: each intake path records an event in a
 * transaction through the idempotent inbox, and hands its notifications on with a split (one message
 * per (event, channel)) and a recipient list to each channel's queue. Read from the route model the
 * shipped YAML makes; it fails if either EIP disappears from the per-event, the batch or the retry path.
 */
class FlowShapeTest {

    private static DefaultCamelContext context;
    private static Model model;

    @BeforeAll
    static void loadRoutes() throws Exception {
        context = new DefaultCamelContext();
        List<org.apache.camel.spi.Resource> resources = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("routes"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".camel.yaml")).sorted().toList()) {
                resources.add(ResourceHelper.resolveResource(context, "file:" + file));
            }
        }
        PluginHelper.getRoutesLoader(context).loadRoutes(resources);
        model = context.getCamelContextExtension().getContextPlugin(Model.class);
    }

    @AfterAll
    static void close() throws Exception {
        context.close();
    }

    @Test
    void shouldRecordEachEventInATransactionThroughTheIdempotentInbox() {
        RouteDefinition record = route("record-event");

        assertThat(find(record, TransactedDefinition.class)).isNotEmpty();
        assertThat(find(record, IdempotentConsumerDefinition.class)).singleElement()
                .satisfies(dedup -> assertThat(dedup.getIdempotentRepository()).isEqualTo("#inboxRepository"));
    }

    @Test
    void shouldHandEveryPathsNotificationsOnWithASplitAndARecipientListToTheChannelQueues() {
        for (String path : List.of("consume-events", "consume-events-batch", "retry-due-notifications")) {
            assertThat(find(route(path), ToDefinition.class)).as(path + " hands its claims to the hand-off")
                    .anySatisfy(to -> assertThat(to.getUri()).isEqualTo("direct:hand-off"));
        }
        RouteDefinition handOff = route("hand-off");
        assertThat(handOff.getInput().getUri()).isEqualTo("direct:hand-off");
        SplitDefinition split = find(handOff, SplitDefinition.class).stream().findFirst().orElseThrow();
        assertThat(find(split, RecipientListDefinition.class)).as("inside the split").singleElement()
                .satisfies(to -> assertThat(to.getExpression().getExpression()).startsWith("seda:deliver-${body.key.channel.id}"));
    }

    @Test
    void shouldNameTheProvidersEndpointsInTheChannelRoutes() {
        assertThat(find(route("email-primary"), ToDefinition.class))
                .anySatisfy(to -> assertThat(to.getUri()).startsWith("smtp://"));
        assertThat(find(route("email-fallback"), ToDefinition.class))
                .anySatisfy(to -> assertThat(to.getUri()).startsWith("smtp://"));
        // the HTTP channels are routes of the http-provider template: the URL is its parameter
        assertThat(find(template("http-provider"), ToDefinition.class))
                .anySatisfy(to -> assertThat(to.getUri()).startsWith("{{url}}?"));
    }

    @Test
    void shouldFailOverBetweenProvidersOnlyWhenTheFirstSurelyDidNotTakeIt() {
        for (String channel : List.of("email", "push")) {
            LoadBalanceDefinition providers = find(route("send-" + channel), LoadBalanceDefinition.class).stream()
                    .findFirst().orElseThrow();
            assertThat(providers.getLoadBalancerType()).isInstanceOfSatisfying(FailoverLoadBalancerDefinition.class,
                    failover -> assertThat(failover.getExceptions())
                            .containsExactly(dev.notifier.delivery.ProviderNotTakenException.class.getName()));
            assertThat(find(providers, ToDefinition.class)).extracting(ToDefinition::getUri)
                    .containsExactly("direct:" + channel + "-primary", "direct:" + channel + "-fallback");
        }
    }

    private static RouteDefinition route(String id) {
        return Optional.ofNullable(model.getRouteDefinition(id)).orElseThrow(() -> new AssertionError("no route " + id));
    }

    private static RouteDefinition template(String id) {
        return Optional.ofNullable(model.getRouteTemplateDefinition(id)).orElseThrow(() -> new AssertionError("no template " + id))
                .getRoute();
    }

    private static <T> List<T> find(RouteDefinition route, Class<T> type) {
        List<T> found = new ArrayList<>();
        route.getOutputs().forEach(output -> collect(output, type, found));
        return found;
    }

    private static <T> List<T> find(ProcessorDefinition<?> step, Class<T> type) {
        List<T> found = new ArrayList<>();
        step.getOutputs().forEach(output -> collect(output, type, found));
        return found;
    }

    private static <T> void collect(ProcessorDefinition<?> step, Class<T> type, List<T> found) {
        if (type.isInstance(step)) {
            found.add(type.cast(step));
        }
        step.getOutputs().forEach(output -> collect(output, type, found));
    }
}
