/** The incoming "transfer completed" event: its shape, and the rules that make a Kafka record one. */
package dev.notifier.event;
