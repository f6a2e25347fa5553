package dev.notifier.support;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real OTLP/HTTP traces receiver ({@code POST /v1/traces}, protobuf): what the exporter sends, decoded
 * with opentelemetry-proto, kept as spans with hex ids.
 */
public final class OtlpReceiver implements AutoCloseable {

    /** One received span: ids in hex (parent empty for a root), name, kind and attributes as text. */
    public record Received(String traceId, String spanId, String parentSpanId, String name, String kind,
                           java.util.Map<String, String> attributes, String status) {
    }

    private final HttpServer server;
    private final List<Received> spans = new CopyOnWriteArrayList<>();
    private final List<String> resourceServiceNames = new CopyOnWriteArrayList<>();

    public OtlpReceiver() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/traces", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body.readAllBytes());
                request.getResourceSpansList().forEach(resource -> {
                    resource.getResource().getAttributesList().stream().filter(a -> a.getKey().equals("service.name"))
                            .forEach(a -> resourceServiceNames.add(a.getValue().getStringValue()));
                    resource.getScopeSpansList().forEach(scope -> scope.getSpansList().forEach(this::keep));
                });
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1);
            } catch (Exception e) {
                exchange.sendResponseHeaders(400, -1);
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    private void keep(Span span) {
        java.util.Map<String, String> attributes = new java.util.TreeMap<>();
        span.getAttributesList().forEach(a -> attributes.put(a.getKey(), text(a.getValue())));
        spans.add(new Received(hex(span.getTraceId().toByteArray()), hex(span.getSpanId().toByteArray()),
                hex(span.getParentSpanId().toByteArray()), span.getName(), span.getKind().name(), attributes,
                span.getStatus().getCode().name()));
    }

    private static String text(io.opentelemetry.proto.common.v1.AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case BOOL_VALUE -> String.valueOf(value.getBoolValue());
            case INT_VALUE -> String.valueOf(value.getIntValue());
            case ARRAY_VALUE -> value.getArrayValue().getValuesList().stream().map(OtlpReceiver::text).toList().toString();
            default -> value.toString();
        };
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<Received> spans() {
        return List.copyOf(spans);
    }

    public List<String> serviceNames() {
        return List.copyOf(resourceServiceNames);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
