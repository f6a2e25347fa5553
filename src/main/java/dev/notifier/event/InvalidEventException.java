package dev.notifier.event;

/** A record that can never be processed, however often it is redelivered: it belongs in the DLQ. */
public class InvalidEventException extends Exception {

    public InvalidEventException(String reason) {
        super(oneLine(reason));
    }

    /** The reason travels as a Kafka header and a log line: it must never span lines. */
    private static String oneLine(String reason) {
        String flat = reason.replaceAll("[\\r\\n\\t]+", " ").strip();
        return flat.length() > 500 ? flat.substring(0, 500) + "..." : flat;
    }
}
