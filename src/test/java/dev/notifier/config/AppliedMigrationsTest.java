package dev.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.DatabaseTestBase;
import dev.notifier.support.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Flyway is left out only when the database has exactly the migrations the jar holds; anything
 * else runs it. The database here was migrated by Flyway itself, so its history holds Flyway's own
 * checksums.
 */
class AppliedMigrationsTest extends DatabaseTestBase {

    @Test
    void shouldFindEveryPackagedMigrationAppliedWithFlywaysChecksums() throws Exception {
        long files;
        try (Stream<Path> listed = Files.list(Path.of("src/main/resources/db/migration"))) {
            files = listed.filter(file -> file.toString().endsWith(".sql")).count();
        }

        assertThat(AppliedMigrations.packaged()).hasSize((int) files);
        assertThat(AppliedMigrations.allApplied(db.jdbc().getDataSource())).isTrue();
    }

    @Test
    void shouldRunFlywayForAMigrationNotAppliedYet() {
        db.jdbc().update("DELETE FROM flyway_schema_history WHERE installed_rank = (SELECT max(installed_rank) FROM flyway_schema_history)");

        assertThat(AppliedMigrations.allApplied(db.jdbc().getDataSource())).isFalse();
    }

    @Test
    void shouldRunFlywayForAFileChangedSinceItWasApplied() {
        db.jdbc().update("UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE version = '3'");

        assertThat(AppliedMigrations.allApplied(db.jdbc().getDataSource())).isFalse();
    }

    @Test
    void shouldRunFlywayAfterAFailedMigration() {
        db.jdbc().update("UPDATE flyway_schema_history SET success = FALSE WHERE version = '2'");

        assertThat(AppliedMigrations.allApplied(db.jdbc().getDataSource())).isFalse();
    }

    @Test
    void shouldRunFlywayForAMigrationThisJarDoesNotHold() {
        db.jdbc().update("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum,"
                + " installed_by, execution_time, success) VALUES (99, '99', 'newer', 'SQL', 'V99__newer.sql', 1, 'x', 1, TRUE)");

        assertThat(AppliedMigrations.allApplied(db.jdbc().getDataSource())).isFalse();
    }

    /** A database a migration behind is migrated; one with all of them is left as it is, and reads as complete. */
    @Test
    void shouldMigrateADatabaseThatLacksTheLatestMigration() {
        try (TestDatabase behind = new TestDatabase()) {
            DriverManagerDataSource dataSource = new DriverManagerDataSource(behind.url(), TestDatabase.USER, "");
            int latest = AppliedMigrations.packaged().keySet().stream().mapToInt(Integer::parseInt).max().orElseThrow();
            Flyway.configure().dataSource(dataSource).locations("classpath:db/migration")
                    .target(String.valueOf(latest - 1)).load().migrate();
            assertThat(AppliedMigrations.allApplied(dataSource)).isFalse();

            Database.migrate(dataSource);

            assertThat(behind.count("SELECT count(*) FROM flyway_schema_history WHERE version = ?", String.valueOf(latest)))
                    .isEqualTo(1);
            assertThat(AppliedMigrations.allApplied(dataSource)).isTrue();
        }
    }

    @Test
    void shouldNotReadAsCompleteADatabaseWithoutHistory() {
        try (TestDatabase fresh = new TestDatabase()) {
            assertThat(AppliedMigrations.allApplied(new DriverManagerDataSource(fresh.url(), TestDatabase.USER, ""))).isFalse();
        }
    }
}
