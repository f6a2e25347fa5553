package dev.notifier.demo;

import java.util.List;

/**
 * {@code java -jar target/notifier-demo.jar [options]}: the demo, a jar of its own beside the service's.
 * Its embedded Kafka broker, PostgreSQL, SMTP server, push gateway and LINE API are not in notifier.jar; the
 * application it runs is (the demo jar's class path names it).
 */
public final class DemoMain {

    private DemoMain() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(new DemoCommand().run(List.of(args)));
    }
}
