package dev.notifier.trace;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.camel.component.kafka.KafkaConstants;
import org.apache.kafka.common.header.Headers;

/**
 * Notifier's spans. Off (every method a no-op, nothing propagated, no thread started) unless the standard
 * variables name an exporter: {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or {@code ..._TRACES_ENDPOINT}), or
 * {@code OTEL_TRACES_EXPORTER} other than {@code none}; {@code OTEL_SDK_DISABLED=true} turns it off
 * again. The SDK's own autoconfiguration reads them and their siblings ({@code OTEL_SERVICE_NAME},
 * default {@code notifier}; {@code OTEL_TRACES_SAMPLER}, default parent-based always-on); metrics and
 * logs are not exported (they have /metrics and the log). OTLP goes over HTTP ({@code http/protobuf}, the
 * JDK's client); {@code grpc} is refused at start with its reason. Each {@code otel.*} key may also be given as a
 * property (tests do), which wins over the variable.
 *
 * <p>Spans carry ids, channels, providers and outcomes: never an address, a name or an amount.
 */
public final class Tracing implements AutoCloseable {

    public static final AttributeKey<String> EVENT_ID = AttributeKey.stringKey("notifier.event_id");
    public static final AttributeKey<String> CHANNEL = AttributeKey.stringKey("notifier.channel");
    public static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("notifier.provider");
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("notifier.outcome");
    public static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("notifier.attempt");
    public static final AttributeKey<Boolean> DUPLICATE = AttributeKey.booleanKey("notifier.duplicate");
    public static final AttributeKey<List<String>> CHANNELS = AttributeKey.stringArrayKey("notifier.channels");
    public static final AttributeKey<Long> CLAIMED = AttributeKey.longKey("notifier.claimed");
    private static final List<String> KEYS = List.of("otel.sdk.disabled", "otel.traces.exporter", "otel.exporter.otlp.endpoint",
            "otel.exporter.otlp.traces.endpoint", "otel.exporter.otlp.protocol", "otel.exporter.otlp.traces.protocol",
            "otel.exporter.otlp.headers", "otel.service.name", "otel.resource.attributes", "otel.traces.sampler",
            "otel.traces.sampler.arg", "otel.bsp.schedule.delay", "otel.bsp.max.queue.size", "otel.bsp.max.export.batch.size");

    private final OpenTelemetrySdk sdk;
    private final Tracer tracer;

    private Tracing(OpenTelemetrySdk sdk) {
        this.sdk = sdk;
        this.tracer = sdk == null ? null : sdk.getTracer("dev.notifier");
    }

    public static Tracing off() {
        return new Tracing(null);
    }

    /** @param property an {@code otel.*} key's value among the service's properties, if set there */
    public static Tracing configure(Function<String, Optional<String>> property) {
        Map<String, String> given = new HashMap<>();
        for (String key : KEYS) {
            property.apply(key).filter(v -> !v.isBlank())
                    .or(() -> Optional.ofNullable(System.getProperty(key)))
                    .or(() -> Optional.ofNullable(System.getenv(key.toUpperCase(Locale.ROOT).replace('.', '_'))))
                    .filter(v -> !v.isBlank()).ifPresent(v -> given.put(key, v.strip()));
        }
        boolean exporter = given.containsKey("otel.exporter.otlp.endpoint") || given.containsKey("otel.exporter.otlp.traces.endpoint")
                || given.containsKey("otel.traces.exporter") && !given.get("otel.traces.exporter").equals("none");
        if (!exporter || "true".equalsIgnoreCase(given.get("otel.sdk.disabled"))) {
            return off();
        }
        for (String protocol : List.of("otel.exporter.otlp.protocol", "otel.exporter.otlp.traces.protocol")) {
            if (given.containsKey(protocol) && !given.get(protocol).equals("http/protobuf")) {
                throw new IllegalStateException(protocol.toUpperCase(Locale.ROOT).replace('.', '_') + "=" + given.get(protocol)
                        + " is not supported: Notifier exports OTLP over HTTP (http/protobuf, a collector's port 4318)");
            }
        }
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesSupplier(() -> Map.of("otel.service.name", "notifier", "otel.metrics.exporter", "none",
                        "otel.logs.exporter", "none", "otel.exporter.otlp.protocol", "http/protobuf"))
                .addPropertiesCustomizer(config -> given)
                .disableShutdownHook()
                .build().getOpenTelemetrySdk();
        return new Tracing(sdk);
    }

    public boolean enabled() {
        return sdk != null;
    }

    /** The intake of the Kafka record camel-kafka put in this message (its headers, topic, partition, offset). */
    public Span intake(org.apache.camel.Message record) {
        if (sdk == null) {
            return Span.getInvalid();
        }
        return intake(record.getHeader(KafkaConstants.HEADERS, Headers.class), record.getHeader(KafkaConstants.TOPIC),
                record.getHeader(KafkaConstants.PARTITION), record.getHeader(KafkaConstants.OFFSET));
    }

    /** A Kafka record's intake, continuing the producer's trace when the record names it well formed. */
    public Span intake(Headers headers, Object topic, Object partition, Object offset) {
        if (sdk == null) {
            return Span.getInvalid();
        }
        SpanBuilder span = tracer.spanBuilder("notifier.inbox").setSpanKind(SpanKind.CONSUMER)
                .setAttribute("messaging.system", "kafka")
                .setAttribute("messaging.destination.name", String.valueOf(topic))
                .setAttribute("messaging.destination.partition.id", String.valueOf(partition))
                .setAttribute("messaging.kafka.offset", offset instanceof Number n ? n.longValue() : -1L);
        return parented(span, TraceParent.ofRecord(headers)).startSpan();
    }

    /** One attempt to send a notification, within the trace its row was recorded in (if any). */
    public Span send(String traceparent, String channel, int attempt) {
        if (sdk == null) {
            return Span.getInvalid();
        }
        SpanBuilder span = tracer.spanBuilder("notifier.send").setSpanKind(SpanKind.CLIENT)
                .setAttribute(CHANNEL, channel).setAttribute(ATTEMPT, (long) attempt);
        return parented(span, TraceParent.parse(traceparent, null)).startSpan();
    }

    /** The retry poller's claim of due notifications, recorded when it claimed any. */
    public void claimed(Instant start, int claimed) {
        if (sdk != null && claimed > 0) {
            tracer.spanBuilder("notifier.retry.claim").setNoParent().setStartTimestamp(start)
                    .setAttribute(CLAIMED, (long) claimed).startSpan().end();
        }
    }

    /**
     * Publishing a dead letter, under the intake of the record it is about: its span (per-event intake), or
     * the {@code traceparent} of it the letter carries (batch intake).
     */
    public Span deadLetter(Span intake, String intakeTraceparent) {
        if (sdk == null) {
            return Span.getInvalid();
        }
        SpanBuilder span = tracer.spanBuilder("notifier.dead-letter").setSpanKind(SpanKind.PRODUCER)
                .setAttribute("messaging.system", "kafka");
        return parented(span, Optional.ofNullable(intake).map(Span::getSpanContext).filter(SpanContext::isValid)
                .or(() -> TraceParent.parse(intakeTraceparent, null))).startSpan();
    }

    private static SpanBuilder parented(SpanBuilder span, Optional<SpanContext> parent) {
        return parent.map(p -> span.setParent(Context.root().with(Span.wrap(p)))).orElseGet(span::setNoParent);
    }

    /** Exports what is still buffered, then stops the exporter (after every route has stopped). */
    @Override
    public void close() {
        if (sdk != null) {
            sdk.shutdown().join(10, TimeUnit.SECONDS);
        }
    }
}
