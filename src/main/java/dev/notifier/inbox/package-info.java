/**
 * Recording an event exactly once: the inbox table, the channels an event fans out to, and the
 * schema guard that refuses to run on a dedup key of the wrong granularity.
 */
package dev.notifier.inbox;
