package dev.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.DatabaseTestBase;
import dev.notifier.support.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
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

    /** Each a way the history can differ from the packaged migrations: each must make Flyway run. */
    static Stream<Arguments> historiesFlywayMustSee() {
        return Stream.of(
                Arguments.of("a migration not applied yet",
                        "DELETE FROM flyway_schema_history WHERE installed_rank = (SELECT max(installed_rank) FROM flyway_schema_history)"),
                Arguments.of("a file changed since it was applied",
                        "UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE version = '3'"),
                Arguments.of("a failed migration", "UPDATE flyway_schema_history SET success = FALSE WHERE version = '2'"),
                Arguments.of("a migration this jar does not hold",
                        "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum,"
                                + " installed_by, execution_time, success) VALUES (99, '99', 'newer', 'SQL', 'V99__newer.sql', 1, 'x', 1, TRUE)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("historiesFlywayMustSee")
    void shouldRunFlywayWhenTheHistoryDiffers(String history, String change) {
        db.jdbc().update(change);

        assertThat(AppliedMigrations.allApplied(db.jdbc().getDataSource())).as(history).isFalse();
    }

    /** A database a migration behind is migrated; one with all of them is left as it is, and reads as complete. */
    @Test
    void shouldMigrateADatabaseThatLacksTheLatestMigration() {
        try (TestDatabase behind = new TestDatabase()) {
            DriverManagerDataSource dataSource = new DriverManagerDataSource(behind.url(), TestDatabase.USER, "");
            java.util.List<Integer> versions = AppliedMigrations.packaged().keySet().stream().map(Integer::parseInt).sorted().toList();
            int latest = versions.get(versions.size() - 1);
            // the one before it: versions may have gaps
            Flyway.configure().dataSource(dataSource).locations("classpath:" + AppliedMigrations.LOCATION)
                    .target(String.valueOf(versions.get(versions.size() - 2))).load().migrate();
            assertThat(AppliedMigrations.allApplied(dataSource)).isFalse();

            Database.migrate(dataSource);

            assertThat(behind.count("SELECT count(*) FROM flyway_schema_history WHERE version = ?", String.valueOf(latest)))
                    .isEqualTo(1);
            assertThat(AppliedMigrations.allApplied(dataSource)).isTrue();
        }
    }

    /** A new database is no error: no statement fails (the server would log it as ERROR at every first start). */
    @Test
    void shouldNotReadAsCompleteADatabaseWithoutHistory() {
        try (TestDatabase fresh = new TestDatabase()) {
            java.util.List<Throwable> failedStatements = new java.util.concurrent.CopyOnWriteArrayList<>();
            assertThat(AppliedMigrations.allApplied(failuresRecorded(fresh.url(), failedStatements))).isFalse();
            assertThat(failedStatements).isEmpty();
        }
    }

    /** A data source whose statements record what they threw. */
    private static javax.sql.DataSource failuresRecorded(String url, java.util.List<Throwable> failures) {
        return new DriverManagerDataSource(url, TestDatabase.USER, "") {
            @Override
            public java.sql.Connection getConnection() throws java.sql.SQLException {
                java.sql.Connection connection = super.getConnection();
                return recording(java.sql.Connection.class, connection, failures, method -> method.getName().equals("createStatement"));
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static <T> T recording(Class<T> type, T target, java.util.List<Throwable> failures,
                                   java.util.function.Predicate<java.lang.reflect.Method> wrapsResult) {
        return (T) java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            try {
                Object result = method.invoke(target, args);
                return wrapsResult.test(method) ? recording(java.sql.Statement.class, (java.sql.Statement) result, failures, m -> false) : result;
            } catch (java.lang.reflect.InvocationTargetException e) {
                failures.add(e.getCause());
                throw e.getCause();
            }
        });
    }
}
