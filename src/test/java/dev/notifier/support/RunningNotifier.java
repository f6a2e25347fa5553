package dev.notifier.support;

import dev.notifier.NotifierApplication;
import dev.notifier.ops.ManagementServer;
import java.util.HashMap;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.main.Main;

/** The real application (routes from routes/, config from config/) started in this JVM. */
public final class RunningNotifier implements AutoCloseable {

    private final Main main;

    private RunningNotifier(Main main) {
        this.main = main;
    }

    public static Map<String, String> settings(TestDatabase db, String topic, String dlqTopic, String group,
                                               int smtpPort, String pushUrl) {
        Map<String, String> p = new HashMap<>();
        p.put("notifier.kafka.brokers", TestKafka.bootstrapServers());
        p.put("notifier.kafka.topic", topic);
        p.put("notifier.kafka.dlq-topic", dlqTopic);
        p.put("notifier.kafka.group", group);
        p.put("notifier.kafka.consumers", "3");
        p.put("notifier.db.url", db.url());
        p.put("notifier.db.user", TestDatabase.USER);
        p.put("notifier.smtp.host", "127.0.0.1");
        p.put("notifier.smtp.port", String.valueOf(smtpPort));
        p.put("notifier.channel.push.url", pushUrl);
        p.put("notifier.delivery.poll-millis", "200");
        p.put("notifier.delivery.retry-base-millis", "200");
        p.put("notifier.delivery.retry-max-millis", "2000");
        p.put("notifier.kafka.redeliveries", "3");
        p.put("notifier.smtp.timeout-millis", "3000");
        p.put("notifier.channel.push.read-timeout-millis", "3000");
        // a free port: tests run beside other tests and services on this machine
        p.put("notifier.http.port", "0");
        return p;
    }

    public static RunningNotifier start(Map<String, String> settings) throws Exception {
        return start(settings, System::getenv);
    }

    /** With {@code NOTIFIER_*} variables (and {@code _FILE}s) from the given environment instead of the process's. */
    public static RunningNotifier start(Map<String, String> settings, java.util.function.UnaryOperator<String> environment)
            throws Exception {
        Main main = NotifierApplication.newMain(settings, environment);
        try {
            main.start();
        } catch (Exception | Error e) {
            main.stop();
            throw e;
        }
        return new RunningNotifier(main);
    }

    public CamelContext context() {
        return main.getCamelContext();
    }

    /** The management port's base URL, such as {@code http://127.0.0.1:41234} ({@code https} with TLS). */
    public String managementUrl() {
        ManagementServer server = context().hasService(ManagementServer.class);
        return server.scheme() + "://127.0.0.1:" + server.getPort();
    }

    @Override
    public void close() {
        main.stop();
    }
}
