package dev.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.notifier.event.ChannelCatalog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rules of {@link CleartextCredentials} one by one, on the JVM's own name resolution. The service's
 * start with each of them is {@code dev.notifier.security.CleartextCredentialsStartTest}.
 */
class CleartextCredentialsTest {

    /** TEST-NET-1 (RFC 5737): not this machine, and never resolved through DNS. */
    private static final String ELSEWHERE = "192.0.2.10";

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "127.0.0.1", "127.0.0.2", "::1", "[::1]"})
    void shouldTakeWhatResolvesToLoopbackAsThisMachine(String host) {
        assertThat(CleartextCredentials.isLoopback(host)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {ELSEWHERE, "10.0.0.1", "0.0.0.0", "::", " ", "no-such-host.invalid"})
    void shouldTakeAnythingElseAsAnotherHost(String host) {
        assertThat(CleartextCredentials.isLoopback(host)).isFalse();
        assertThat(CleartextCredentials.isLoopback(null)).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "jdbc:postgresql://192.0.2.10:5432/notifier|prefer",
            "jdbc:postgresql://192.0.2.10/notifier?sslmode=disable|disable",
            "jdbc:postgresql://192.0.2.10/notifier?sslmode=allow|allow",
            "jdbc:postgresql://192.0.2.10/notifier?ssl=false|prefer",
            "jdbc:postgresql://127.0.0.1:5432,192.0.2.10:5432/notifier?targetServerType=primary|prefer"})
    void shouldWarnWhenTheDatabaseIsElsewhereWithoutTls(String url, String mode) {
        assertThat(CleartextCredentials.databaseInClear(url)).hasValueSatisfying(warning -> assertThat(warning)
                .startsWith("NOTIFIER_DB_URL points to " + ELSEWHERE + ", which is not this machine, with sslmode " + mode + ":")
                .contains("sslmode=verify-full").doesNotContain("127.0.0.1"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdbc:postgresql://192.0.2.10/notifier?sslmode=verify-full&sslrootcert=/etc/ca.pem",
            "jdbc:postgresql://192.0.2.10/notifier?sslmode=require", "jdbc:postgresql://192.0.2.10/notifier?sslmode=verify-ca",
            "jdbc:postgresql://192.0.2.10/notifier?ssl=true", "jdbc:postgresql://localhost:5432/notifier",
            "jdbc:postgresql://127.0.0.1,[::1]:5433/notifier?sslmode=disable", "jdbc:postgresql:notifier",
            "jdbc:h2:mem:notifier"})
    void shouldNotWarnWhenTheDatabaseIsHereOrTlsIsRequired(String url) {
        assertThat(CleartextCredentials.databaseInClear(url)).isEmpty();
    }

    @Test
    void shouldNeverEchoTheDatabaseUrlsParameters() {
        assertThat(CleartextCredentials.databaseInClear("jdbc:postgresql://192.0.2.10/notifier?password=hunter2-secret"))
                .hasValueSatisfying(warning -> assertThat(warning).doesNotContain("hunter2"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "user only|ops||NOTIFIER_SMTP_USER in clear",
            "password only||secret-pw|NOTIFIER_SMTP_PASSWORD in clear",
            "both|ops|secret-pw|NOTIFIER_SMTP_USER and NOTIFIER_SMTP_PASSWORD in clear"})
    void shouldFindSmtpCredentialsGoingInClearToAnotherHost(String description, String user, String password, String named) {
        List<String> inClear = CleartextCredentials.smtpInClear(smtp(ELSEWHERE, "none", user, password), ChannelCatalog.standard());

        assertThat(inClear).singleElement().asString().contains(named).contains(ELSEWHERE + " (NOTIFIER_SMTP_HOST)")
                .contains("NOTIFIER_SMTP_TLS is none").doesNotContain("secret-pw");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"192.0.2.10, starttls", "192.0.2.10, smtps", "localhost, none", "127.0.0.1, NONE"})
    void shouldFindNothingWithTlsOrOnThisMachine(String host, String tls) {
        assertThat(CleartextCredentials.smtpInClear(smtp(host, tls, "ops", "pw"), ChannelCatalog.standard())).isEmpty();
    }

    @Test
    void shouldFindNothingWithoutCredentialsOrWithoutEmail() {
        assertThat(CleartextCredentials.smtpInClear(smtp(ELSEWHERE, "none", null, null), ChannelCatalog.standard())).isEmpty();
        assertThat(CleartextCredentials.smtpInClear(smtp(ELSEWHERE, "none", "ops", "pw"),
                ChannelCatalog.from("PUSH", key -> Optional.of("pushToken")))).isEmpty();
    }

    @Test
    void shouldRefuseNamingEveryProblemAndTheWayOutOrOnlyWarnWhenAllowed() {
        List<String> inClear = List.of("first problem", "second problem");

        assertThatThrownBy(() -> CleartextCredentials.refuseOrWarn(inClear, false)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Refusing to start: first problem; second problem.")
                .hasMessageContaining("NOTIFIER_ALLOW_CLEARTEXT=true");
        CleartextCredentials.refuseOrWarn(inClear, true);
        CleartextCredentials.refuseOrWarn(List.of(), false);
    }

    private static Function<String, Optional<String>> smtp(String host, String tls, String user, String password) {
        Map<String, String> p = new HashMap<>();
        p.put("notifier.smtp.host", host);
        p.put("notifier.smtp.tls", tls);
        p.put("notifier.smtp.user", user);
        p.put("notifier.smtp.password", password);
        return key -> Optional.ofNullable(p.get(key)).filter(value -> !value.isBlank());
    }
}
