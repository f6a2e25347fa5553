package dev.notifier.support;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every log line of the test JVM so tests can assert what was (not) logged. */
public class LogCapture extends AppenderBase<ILoggingEvent> {

    /** One log event: its level, its logger's name and its message with the causes' messages appended. */
    public record Entry(Level level, String logger, String line, java.util.Map<String, String> mdc) {
        @Override
        public String toString() {
            return level + " " + logger + " - " + line;
        }
    }

    private static final List<Entry> ENTRIES = new CopyOnWriteArrayList<>();

    @Override
    protected void append(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(event.getFormattedMessage());
        for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
            line.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
        }
        ENTRIES.add(new Entry(event.getLevel(), event.getLoggerName(), line.toString(),
                java.util.Map.copyOf(event.getMDCPropertyMap())));
    }

    public static int mark() {
        return ENTRIES.size();
    }

    /** The messages logged since the mark. */
    public static List<String> since(int mark) {
        return entriesSince(mark).stream().map(Entry::line).toList();
    }

    /**
     * The entries logged since the mark, from one snapshot: a view of the live list fails with a
     * ConcurrentModificationException when another thread logs while it is copied.
     */
    public static List<Entry> entriesSince(int mark) {
        List<Entry> all = List.copyOf(ENTRIES);
        return all.subList(Math.min(mark, all.size()), all.size());
    }
}
