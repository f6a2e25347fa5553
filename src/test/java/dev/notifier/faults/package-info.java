/**
 * The fault-injection suite: real processes (the packaged jar, a standalone Kafka broker),
 * PostgreSQL, and sinks that record every delivery; faults injected, healed, and the sets compared.
 */
package dev.notifier.faults;
