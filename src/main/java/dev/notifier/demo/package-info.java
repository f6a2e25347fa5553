/**
 * {@code java -jar notifier.jar demo}: the real application and routes on embedded parts (a Kafka
 * broker, H2, an SMTP server, a push gateway), fed the example events, with a summary of what happened.
 */
package dev.notifier.demo;
