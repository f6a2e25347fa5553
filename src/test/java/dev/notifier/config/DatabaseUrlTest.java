package dev.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The service's data lives in PostgreSQL only: an in-memory or other database URL is refused before anything connects. */
class DatabaseUrlTest {

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:h2:mem:notifier", "jdbc:h2:mem:notifier;MODE=PostgreSQL", "jdbc:hsqldb:mem:x",
            "jdbc:derby:memory:x;create=true", "jdbc:sqlite::memory:", "jdbc:postgres://db/notifier", "postgresql://db/x", ""})
    void shouldRefuseAnythingButPostgres(String url) {
        assertThatThrownBy(() -> Database.requirePostgres(url)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("NOTIFIER_DB_URL must be a PostgreSQL URL")
                .hasMessageContaining("Notifier keeps its inbox and notifications in PostgreSQL only");
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:postgresql://localhost:5432/notifier", "jdbc:postgresql://db1,db2/notifier?targetServerType=primary"})
    void shouldAcceptPostgres(String url) {
        assertThat(Database.requirePostgres(url)).isEqualTo(url);
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:h2:mem:a-very-long-name-that-goes-on-and-on;PASSWORD=secret-in-the-url"})
    void shouldNotEchoAWholeUrl(String url) {
        assertThatThrownBy(() -> Database.requirePostgres(url)).hasMessageNotContaining("secret-in-the-url");
    }
}
