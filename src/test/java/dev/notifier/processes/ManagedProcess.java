package dev.notifier.processes;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A child JVM of the suite, logging to a file, that can be stopped politely or killed with -9. */
public abstract class ManagedProcess implements AutoCloseable {

    protected final String name;
    protected final Path logFile;
    private Process process;

    public ManagedProcess(String name, Path logDir) throws IOException {
        this.name = name;
        Files.createDirectories(logDir);
        this.logFile = logDir.resolve(name + ".log");
    }

    /** This JVM's own {@code java}: every process the tests start runs on the JDK that runs them. */
    public static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    protected abstract List<String> command();

    /** What runs {@link #command()}: this JVM's own {@code java}, unless a subclass runs a launcher script. */
    protected List<String> launcher() {
        return List.of(JAVA);
    }

    protected Map<String, String> environment() {
        return Map.of();
    }

    protected void start() throws IOException {
        List<String> command = new ArrayList<>(launcher());
        command.addAll(command());
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(new File(System.getProperty("user.dir")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        builder.environment().putAll(environment());
        process = builder.start();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** SIGKILL: no shutdown hook, no finally block, nothing flushed. */
    public void kill9() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    /** SIGTERM, then wait for the JVM to finish its shutdown. */
    public int terminate(Duration grace) throws InterruptedException {
        if (process == null) {
            return 0;
        }
        process.destroy();
        if (!process.waitFor(grace.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor();
            return -1;
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        kill9();
    }

    /**
     * A port nothing listens on, below Linux's ephemeral range (32768-60999): a server that is stopped
     * and started again on it (an outage) cannot find it taken by some process's outgoing connection
     * meanwhile, as an ephemeral port can be.
     */
    public static int freePort() throws IOException {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = 20_000 + random.nextInt(12_000);
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (IOException taken) {
                // another one
            }
        }
        throw new IOException("no free port found between 20000 and 32000");
    }

    public static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
