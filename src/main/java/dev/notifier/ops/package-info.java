/** Operating Notifier: the management port (status page, health, metrics) and the operator's commands. */
package dev.notifier.ops;
