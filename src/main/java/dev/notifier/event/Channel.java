package dev.notifier.event;

/** A way of reaching a customer. One event becomes at most one notification per channel. */
public enum Channel {
    EMAIL,
    PUSH
}
