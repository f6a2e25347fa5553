package dev.notifier.cli;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code java -jar notifier.jar demo [options]}, as the contract promises, although the demo and its
 * embedded Kafka broker, PostgreSQL and SMTP server are not in the service jar: they are
 * {@code notifier-demo.jar} and {@code demo-lib/} beside it (what {@code mvn package} leaves in
 * {@code target/}). The demo jar is loaded in a class loader of its own, whose parent is the service's:
 * the demo runs this very application, and its manifest's class path brings the embedded parts.
 */
final class DemoLauncher {

    static final String DEMO_JAR = "notifier-demo.jar";
    private static final String DEMO_MAIN = "dev.notifier.demo.DemoCommand";

    private DemoLauncher() {
    }

    static int run(List<String> args, PrintStream err) throws Exception {
        Optional<Path> demoJar = besideThisJar();
        if (demoJar.isEmpty()) {
            err.println("notifier: the demo is not installed beside this jar: it needs " + DEMO_JAR + " and demo-lib/"
                    + " next to notifier.jar, as `mvn package` leaves them in target/ (or build and run it with"
                    + " mvn -q -Pdemo package)");
            return Commands.USAGE;
        }
        ClassLoader service = DemoLauncher.class.getClassLoader();
        try (URLClassLoader demo = new URLClassLoader("notifier-demo", new URL[] {demoJar.get().toUri().toURL()}, service)) {
            Thread.currentThread().setContextClassLoader(demo);
            Class<?> command = demo.loadClass(DEMO_MAIN);
            Method run = command.getMethod("run", List.class);
            try {
                return (int) run.invoke(command.getConstructor().newInstance(), args);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            } finally {
                Thread.currentThread().setContextClassLoader(service);
            }
        }
    }

    /** notifier-demo.jar in the directory of the jar this class was loaded from; empty when run from classes. */
    private static Optional<Path> besideThisJar() throws URISyntaxException {
        URL location = DemoLauncher.class.getProtectionDomain().getCodeSource().getLocation();
        Path self = Path.of(location.toURI());
        if (!Files.isRegularFile(self)) {
            return Optional.empty();
        }
        Path demo = self.resolveSibling(DEMO_JAR);
        return Files.isRegularFile(demo) ? Optional.of(demo) : Optional.empty();
    }
}
