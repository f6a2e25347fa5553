package dev.notifier.event;

/** A record that can never be processed, however often it is redelivered: it belongs in the DLQ. */
public class InvalidEventException extends Exception {

    public InvalidEventException(String reason) {
        super(oneLine(reason));
    }

    /**
     * The reason travels as a Kafka header and a log line: it must never span lines. Not only CR
     * and LF break a line: so do VT, FF, NEL (U+0085) and U+2028/U+2029, and producer text such as
     * an unknown channel name is quoted in the reason, so every control character goes. Any email
     * address quoted in producer text is masked, before the cut so none is cut in half. Both are
     * single linear passes: the reason may quote a long field.
     */
    private static String oneLine(String reason) {
        return UntrustedText.oneLine(Mask.emailsIn(reason), 500);
    }
}
