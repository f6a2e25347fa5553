package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.joran.spi.JoranException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The service's logback.xml: plain text by default, one JSON object per line with NOTIFIER_LOG_FORMAT=json. */
class LogFormatTest {

    private static final String MESSAGE = "event 0b9f3c1e-7a51-4c1e-9a43-2f1f5c9d8e01 channel EMAIL -> SENT (attempt 1)";

    @Test
    void shouldWriteOneJsonObjectPerLineWhenAskedFor() throws Exception {
        String line = encode("json");

        assertThat(line).endsWith("\n").hasLineCount(1);
        JsonNode json = JsonMapper.builder().build().readTree(line);
        assertThat(json.get("formattedMessage").asText()).isEqualTo(MESSAGE);
        assertThat(json.get("level").asText()).isEqualTo("INFO");
        assertThat(json.get("loggerName").asText()).isEqualTo("dev.notifier.delivery");
        assertThat(json.has("timestamp")).isTrue();
    }

    @Test
    void shouldWritePlainTextByDefaultAndForAnyOtherValue() throws Exception {
        assertThat(encode(null)).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[main] dev.notifier.delivery - "
                + Pattern.quote(MESSAGE) + "\n");
        assertThat(encode("xml")).doesNotStartWith("{");
    }

    /** One event through the console appender's encoder, as logback.xml sets it up for {@code format}. */
    private static String encode(String format) throws JoranException {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        if (format != null) {
            context.putProperty("NOTIFIER_LOG_FORMAT", format);
        }
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(LogFormatTest.class.getResource("/logback.xml"));
        try {
            Logger logger = context.getLogger("dev.notifier.delivery");
            ConsoleAppender<?> console = (ConsoleAppender<?>) context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDOUT");
            LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, Level.INFO, MESSAGE, null, null);
            event.setThreadName("main");
            @SuppressWarnings("unchecked")
            Encoder<LoggingEvent> encoder = (Encoder<LoggingEvent>) (Object) console.getEncoder();
            return new String(encoder.encode(event), StandardCharsets.UTF_8);
        } finally {
            context.stop();
        }
    }
}
