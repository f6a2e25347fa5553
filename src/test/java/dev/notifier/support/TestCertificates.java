package dev.notifier.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A self-signed server certificate for 127.0.0.1 and localhost, made once per test JVM with the
 * JDK's keytool, and a trust store holding it: real TLS for the SMTP and Kafka tests, with the
 * client checking the chain and the host name, never trusting all.
 */
public final class TestCertificates {

    public static final String PASSWORD = "changeit";
    private static Path directory;

    private TestCertificates() {
    }

    /** PKCS12 with the server's key and certificate, alias {@code server}. */
    public static synchronized Path serverKeystore() {
        if (directory == null) {
            directory = create();
        }
        return directory.resolve("server.p12");
    }

    /** PKCS12 trusting the server's certificate. */
    public static Path truststore() {
        return serverKeystore().resolveSibling("trust.p12");
    }

    public static SSLContext serverContext() {
        try (InputStream in = Files.newInputStream(serverKeystore())) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, PASSWORD.toCharArray());
            KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            managers.init(keys, PASSWORD.toCharArray());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(managers.getKeyManagers(), null, null);
            return context;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path create() {
        try {
            Path dir = Files.createTempDirectory("notifier-test-certs");
            dir.toFile().deleteOnExit();
            keytool(dir, "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "3650",
                    "-dname", "CN=localhost", "-ext", "SAN=IP:127.0.0.1,DNS:localhost", "-keystore", "server.p12",
                    "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
            keytool(dir, "-exportcert", "-alias", "server", "-keystore", "server.p12", "-storepass", PASSWORD,
                    "-file", "server.crt");
            keytool(dir, "-importcert", "-noprompt", "-alias", "server", "-file", "server.crt", "-keystore", "trust.p12",
                    "-storetype", "PKCS12", "-storepass", PASSWORD);
            return dir;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("could not make test certificates with keytool", e);
        }
    }

    private static void keytool(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
        }
    }
}
