package dev.notifier.ops.commands;

/** One thing {@code verify} found wrong with one (event, channel). */
record Finding(String kind, String eventId, String channel, String detail) {

    @Override
    public String toString() {
        return String.format("%-10s event %s channel %s: %s", kind, eventId, channel, detail);
    }
}
