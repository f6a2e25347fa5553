package dev.notifier.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.trace.SpanContext;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class TraceParentTest {

    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void shouldTakeAWellFormedParentWithItsState() {
        SpanContext parent = TraceParent.parse(VALID, "bank=core-7,rojo=00f067aa0ba902b7").orElseThrow();
        assertThat(parent.getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(parent.getSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(parent.isSampled()).isTrue();
        assertThat(parent.isRemote()).isTrue();
        assertThat(parent.getTraceState().asMap()).containsExactly(Map.entry("bank", "core-7"), Map.entry("rojo", "00f067aa0ba902b7"));
        assertThat(TraceParent.format(parent)).isEqualTo(VALID);
        assertThat(TraceParent.traceId(VALID)).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @Test
    void shouldTakeNothingMalformed() {
        for (String bad : new String[] {null, "", VALID.toUpperCase(), "ff" + VALID.substring(2), "01" + VALID.substring(2),
                VALID + "-00", VALID.substring(0, 54), "00-" + "0".repeat(32) + VALID.substring(35),
                VALID.substring(0, 36) + "0".repeat(16) + "-01", VALID.replace('-', '_'), VALID.substring(0, 53) + "zz",
                " " + VALID}) {
            assertThat(TraceParent.parse(bad, null)).as(String.valueOf(bad)).isEmpty();
        }
        assertThat(TraceParent.traceId("not one")).isNull();
    }

    @Test
    void shouldDropAMalformedStateButKeepTheParent() {
        for (String state : new String[] {"BANK=1", "a=1,,b", "a=" + "x".repeat(600), "a=b=c\u0001", "k=" + "v,".repeat(40)}) {
            Optional<SpanContext> parent = TraceParent.parse(VALID, state);
            assertThat(parent).as(state).isPresent();
            assertThat(parent.get().getTraceState().isEmpty()).as(state).isTrue();
        }
    }

    @Test
    void shouldReadOnlyOneTraceparentOfPrintableAsciiFromARecord() {
        RecordHeaders one = new RecordHeaders();
        one.add("traceparent", VALID.getBytes(StandardCharsets.US_ASCII));
        assertThat(TraceParent.ofRecord(one)).isPresent();

        RecordHeaders two = new RecordHeaders();
        two.add("traceparent", VALID.getBytes(StandardCharsets.US_ASCII));
        two.add("traceparent", VALID.getBytes(StandardCharsets.US_ASCII));
        assertThat(TraceParent.ofRecord(two)).as("two are none").isEmpty();

        RecordHeaders binary = new RecordHeaders();
        binary.add("traceparent", (VALID + "\n").getBytes(StandardCharsets.US_ASCII));
        assertThat(TraceParent.ofRecord(binary)).isEmpty();
        RecordHeaders empty = new RecordHeaders();
        empty.add("traceparent", null);
        assertThat(TraceParent.ofRecord(empty)).isEmpty();
        assertThat(TraceParent.ofRecord(new RecordHeaders())).isEmpty();
        assertThat(TraceParent.ofRecord(null)).isEmpty();
    }

    @Test
    void shouldBeOffUnlessAnExporterIsConfiguredAndRefuseGrpc() {
        try (Tracing off = Tracing.configure(key -> Optional.empty())) {
            assertThat(off.enabled()).isFalse();
            assertThat(off.send(VALID, "PUSH", 1).getSpanContext().isValid()).as("nothing propagated while off").isFalse();
        }
        try (Tracing disabled = Tracing.configure(key -> Optional.ofNullable(Map.of("otel.exporter.otlp.endpoint",
                "http://127.0.0.1:1", "otel.sdk.disabled", "true").get(key)))) {
            assertThat(disabled.enabled()).isFalse();
        }
        try (Tracing none = Tracing.configure(key -> Optional.ofNullable(Map.of("otel.traces.exporter", "none").get(key)))) {
            assertThat(none.enabled()).isFalse();
        }
        assertThatThrownBy(() -> Tracing.configure(key -> Optional.ofNullable(Map.of("otel.exporter.otlp.endpoint",
                "http://127.0.0.1:1", "otel.exporter.otlp.protocol", "grpc").get(key))))
                .hasMessageContaining("OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported");
        try (Tracing on = Tracing.configure(key -> Optional.ofNullable(Map.of("otel.exporter.otlp.endpoint",
                "http://127.0.0.1:1").get(key)))) {
            assertThat(on.enabled()).isTrue();
            var span = on.send(VALID, "PUSH", 1);
            assertThat(span.getSpanContext().getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
            span.end();
        }
    }
}
