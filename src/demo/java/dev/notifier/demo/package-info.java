/**
 * The demo, {@code target/notifier-demo.jar} ({@code mvn -q -Pdemo package} builds and runs it): the real
 * application and routes from notifier.jar on embedded parts (a Kafka broker, PostgreSQL, an SMTP server,
 * a push gateway, a LINE API), fed the example events, with a summary of what happened. None of it is in notifier.jar.
 */
package dev.notifier.demo;
