package dev.notifier.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.notifier.config.ServiceProperties;
import dev.notifier.support.ManagementPort;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.RunningNotifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every NOTIFIER_* variable may be given as NAME_FILE, the path of a file holding the value (as
 * Kubernetes and Docker mount secrets): for the service and for the commands alike.
 */
class SecretFilesTest extends PipelineTestBase {

    @TempDir
    Path secrets;

    @Test
    void shouldReadAVariableFromItsFileWithOneTrailingNewlineTrimmed() throws Exception {
        Path file = write("db-password", "s3cret with spaces \n");

        try (ServiceProperties properties = ServiceProperties.load(Map.of(),
                Map.of("NOTIFIER_DB_PASSWORD_FILE", file.toString())::get)) {
            assertThat(properties.get("notifier.db.password")).isEqualTo("s3cret with spaces ");
        }
    }

    @Test
    void shouldKeepEverythingButTheLastNewline() throws Exception {
        Path file = write("token", "line one\nline two\n\n");

        try (ServiceProperties properties = ServiceProperties.load(Map.of(),
                Map.of("NOTIFIER_PUSH_TOKEN_FILE", file.toString())::get)) {
            assertThat(properties.get("notifier.channel.push.token")).isEqualTo("line one\nline two\n");
        }
    }

    @Test
    void shouldPreferNeitherWhenBothAreSet() throws Exception {
        Path file = write("password", "from-file");

        assertThatThrownBy(() -> {
            try (ServiceProperties properties = ServiceProperties.load(Map.of(), Map.of("NOTIFIER_DB_PASSWORD", "plain",
                    "NOTIFIER_DB_PASSWORD_FILE", file.toString())::get)) {
                properties.get("notifier.db.password");
            }
        }).hasStackTraceContaining("both NOTIFIER_DB_PASSWORD and NOTIFIER_DB_PASSWORD_FILE are set");
    }

    @Test
    void shouldSayWhichFileCannotBeRead() {
        assertThatThrownBy(() -> {
            try (ServiceProperties properties = ServiceProperties.load(Map.of(),
                    Map.of("NOTIFIER_SMTP_PASSWORD_FILE", "/nonexistent/secret")::get)) {
                properties.get("notifier.smtp.password");
            }
        }).hasStackTraceContaining("NOTIFIER_SMTP_PASSWORD_FILE: cannot read /nonexistent/secret");
    }

    /** The service reads it too: the page's password from a file protects the page. */
    @Test
    void shouldProtectTheStatusPageWithAPasswordReadFromAFile() throws Exception {
        Path file = write("http-password", "from-a-mounted-secret\n");

        RunningNotifier running = RunningNotifier.start(settings(),
                Map.of("NOTIFIER_HTTP_PASSWORD_FILE", file.toString())::get);
        notifier = running;

        ManagementPort port = new ManagementPort(running);
        assertThat(port.get("/api/summary").statusCode()).isEqualTo(401);
        assertThat(port.get("/api/summary", "operator", "from-a-mounted-secret").statusCode()).isEqualTo(200);
    }

    private Path write(String name, String content) throws Exception {
        return Files.writeString(secrets.resolve(name), content, StandardCharsets.UTF_8);
    }
}
