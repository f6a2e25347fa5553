package dev.notifier.support;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every log line of the test JVM so tests can assert what was (not) logged. */
public class LogCapture extends AppenderBase<ILoggingEvent> {

    private static final List<String> LINES = new CopyOnWriteArrayList<>();

    @Override
    protected void append(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(event.getFormattedMessage());
        for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
            line.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
        }
        LINES.add(line.toString());
    }

    public static int mark() {
        return LINES.size();
    }

    public static List<String> since(int mark) {
        return List.copyOf(LINES.subList(Math.min(mark, LINES.size()), LINES.size()));
    }
}
