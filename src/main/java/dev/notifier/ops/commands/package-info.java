/**
 * The operator's commands on the service's jar ({@code status}, {@code resend}, {@code dlq replay},
 * {@code inbox purge}, {@code verify}): the service's own configuration and database, output for a
 * person, and exit codes a script can rely on (0 done, 1 failed or found something, 2 bad usage).
 */
package dev.notifier.ops.commands;
