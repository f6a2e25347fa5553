package dev.notifier.delivery.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.notifier.delivery.ProviderRejectedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PushResponsesTest {

    private final PushResponses responses = new PushResponses();

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {200, 201, 202, 204, 299})
    void shouldAcceptEverySuccessStatus(int status) {
        assertThatCode(() -> responses.check(status, "{\"id\":\"p-1\"}")).doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {408, 429, 500, 502, 503, 504})
    void shouldRejectForNowWhenTheGatewayMaySayYesLater(int status) {
        ProviderRejectedException rejected = rejectionOf(status, "try later");

        assertThat(rejected.isPermanent()).isFalse();
        assertThat(rejected).hasMessageContaining("HTTP " + status);
    }

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {400, 401, 403, 404, 410, 422})
    void shouldRejectForGoodOnAnyOtherClientError(int status) {
        ProviderRejectedException rejected = rejectionOf(status, "no");

        assertThat(rejected.isPermanent()).isTrue();
        assertThat(rejected).hasMessageContaining("HTTP " + status);
    }

    @Test
    void shouldQuoteTheResponseBodyOnOneLine() {
        ProviderRejectedException rejected = rejectionOf(410, "{\n  \"error\": \"token unregistered\"\r\n}");

        assertThat(rejected.getMessage()).isEqualTo("push gateway answered HTTP 410: { \"error\": \"token unregistered\" }");
    }

    @Test
    void shouldAbbreviateALongResponseBody() {
        ProviderRejectedException rejected = rejectionOf(500, "x".repeat(10_000));

        assertThat(rejected.getMessage()).hasSizeLessThan(400).endsWith("…");
    }

    @Test
    void shouldGiveOnlyTheStatusWithoutABody() {
        assertThat(rejectionOf(503, null)).hasMessage("push gateway answered HTTP 503");
        assertThat(rejectionOf(503, " ")).hasMessage("push gateway answered HTTP 503");
    }

    private ProviderRejectedException rejectionOf(int status, String body) {
        ProviderRejectedException rejected =
                catchThrowableOfType(ProviderRejectedException.class, () -> responses.check(status, body));
        assertThat(rejected).as("HTTP %d must be rejected", status).isNotNull();
        return rejected;
    }
}
