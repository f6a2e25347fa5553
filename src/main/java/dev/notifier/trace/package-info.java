/**
 * Tracing with OpenTelemetry, off unless the standard {@code OTEL_*} variables configure an exporter:
 * the producer's W3C {@code traceparent} on a Kafka record (the one record header Notifier reads,
 * parsed strictly), a span for each record's intake, each send, the retry poller's claims and each dead
 * letter, and {@code traceparent} on the requests to the push and LINE providers.
 */
package dev.notifier.trace;
