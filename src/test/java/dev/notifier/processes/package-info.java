/**
 * Real processes for process-level tests (the fault-injection suite, the benchmark): the packaged
 * jar, a standalone Kafka broker, and an SMTP server and push gateway that record every delivery.
 */
package dev.notifier.processes;
