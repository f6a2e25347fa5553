/** Wiring Notifier to the world: the database, the transaction policy and the beans routes call. */
package dev.notifier.config;
