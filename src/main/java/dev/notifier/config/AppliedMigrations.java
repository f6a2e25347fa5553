package dev.notifier.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32;
import javax.sql.DataSource;

/**
 * Whether the database already has every migration this jar packages, exactly as packaged: in
 * {@code flyway_schema_history}, the same versions and no others, each successful, each with the
 * checksum Flyway computes for the file. Then Flyway has nothing to do and is not started: loading it
 * and scanning for its migrations was about 0.8 s of a start on two cores. Anything else (a new
 * database, a new migration, a failed one, a file changed since it was applied, a read that fails)
 * answers false, and Flyway runs as before: it migrates, or refuses with its own reason.
 */
final class AppliedMigrations {

    /** Where the migrations are packaged, for Flyway and for this check alike. */
    static final String LOCATION = "db/migration";
    private static final String DIRECTORY = LOCATION + "/";
    /**
     * Asked first, on the connection's search path as Flyway's own table: a new database has no history,
     * and a SELECT from a missing table would put an ERROR line in PostgreSQL's log at every first start.
     */
    private static final String HISTORY_EXISTS = "SELECT to_regclass('flyway_schema_history') IS NOT NULL";
    private static final String HISTORY = "SELECT version, checksum, success FROM flyway_schema_history WHERE version IS NOT NULL";

    private AppliedMigrations() {
    }

    static boolean allApplied(DataSource dataSource) {
        Map<String, Integer> packaged = packaged();
        if (packaged.isEmpty()) {
            return false;
        }
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            return exists(statement) && packaged.equals(applied(statement));
        } catch (SQLException e) {
            return false;
        }
    }

    private static boolean exists(Statement statement) throws SQLException {
        try (ResultSet row = statement.executeQuery(HISTORY_EXISTS)) {
            return row.next() && row.getBoolean(1);
        }
    }

    /** Version to checksum of each applied migration; null when one of them did not succeed. */
    private static Map<String, Integer> applied(Statement statement) throws SQLException {
        Map<String, Integer> applied = new HashMap<>();
        try (ResultSet rows = statement.executeQuery(HISTORY)) {
            while (rows.next()) {
                if (!rows.getBoolean("success")) {
                    return null;
                }
                int checksum = rows.getInt("checksum");
                applied.put(rows.getString("version"), rows.wasNull() ? null : checksum);
            }
        }
        return applied;
    }

    /** Version ("1", "2.1") to checksum of each packaged {@code V<version>__<description>.sql}; empty when one cannot be read. */
    static Map<String, Integer> packaged() {
        Map<String, Integer> versions = new HashMap<>();
        for (String file : ConfigLocations.packagedFiles(DIRECTORY, ".sql")) {
            String name = file.substring(DIRECTORY.length());
            int separator = name.indexOf("__");
            if (!name.startsWith("V") || separator < 2) {
                return Map.of();
            }
            try (InputStream in = AppliedMigrations.class.getClassLoader().getResourceAsStream(file)) {
                if (in == null) {
                    return Map.of();
                }
                versions.put(name.substring(1, separator).replace('_', '.'), checksum(in));
            } catch (IOException e) {
                return Map.of();
            }
        }
        return versions;
    }

    /** Flyway's checksum of a migration: CRC-32 of its lines in UTF-8, without line breaks or a leading byte order mark. */
    static int checksum(InputStream in) throws IOException {
        CRC32 crc = new CRC32();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        boolean first = true;
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (first && line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            first = false;
            crc.update(line.getBytes(StandardCharsets.UTF_8));
        }
        return (int) crc.getValue();
    }
}
