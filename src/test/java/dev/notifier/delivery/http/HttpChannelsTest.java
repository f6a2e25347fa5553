package dev.notifier.delivery.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.notifier.delivery.ProviderRejectedException;
import dev.notifier.event.Channel;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A provider's answer read by its channel's declared rules (notifier.channel.<channel>.delivered / .retry). */
class HttpChannelsTest {

    private static final HttpChannel PUSH = channel(Channel.PUSH, Map.of(
            "notifier.channel.push.provider", "push gateway",
            "notifier.channel.push.delivered", "2xx",
            "notifier.channel.push.retry", "408,429,5xx"));
    private static final HttpChannel LINE = channel(Channel.LINE, Map.of(
            "notifier.channel.line.provider", "LINE",
            "notifier.channel.line.token", "secret-token",
            "notifier.channel.line.delivered", "2xx,409",
            "notifier.channel.line.retry", "429,5xx"));

    @Nested
    class Push {

        @ParameterizedTest(name = "HTTP {0}")
        @ValueSource(ints = {200, 201, 202, 204, 299})
        void shouldAcceptEverySuccessStatus(int status) {
            assertThatCode(() -> HttpChannels.check(PUSH, status, "{\"id\":\"p-1\"}")).doesNotThrowAnyException();
        }

        @ParameterizedTest(name = "HTTP {0}")
        @ValueSource(ints = {408, 429, 500, 502, 503, 504})
        void shouldRejectForNowWhenTheGatewayMaySayYesLater(int status) {
            ProviderRejectedException rejected = rejectionOf(PUSH, status, "try later");

            assertThat(rejected.isPermanent()).isFalse();
            assertThat(rejected).hasMessageContaining("HTTP " + status);
        }

        @ParameterizedTest(name = "HTTP {0}")
        @ValueSource(ints = {400, 401, 403, 404, 409, 410, 422})
        void shouldRejectForGoodOnAnyOtherClientError(int status) {
            ProviderRejectedException rejected = rejectionOf(PUSH, status, "no");

            assertThat(rejected.isPermanent()).isTrue();
            assertThat(rejected).hasMessageContaining("HTTP " + status);
        }

        @Test
        void shouldQuoteTheResponseBodyOnOneLine() {
            ProviderRejectedException rejected = rejectionOf(PUSH, 410, "{\n  \"error\": \"token unregistered\"\r\n}");

            assertThat(rejected.getMessage()).isEqualTo("push gateway answered HTTP 410: { \"error\": \"token unregistered\" }");
        }

        @Test
        void shouldAbbreviateALongResponseBody() {
            assertThat(rejectionOf(PUSH, 500, "x".repeat(10_000)).getMessage()).hasSizeLessThan(400).endsWith("…");
        }

        @Test
        void shouldGiveOnlyTheStatusWithoutABody() {
            assertThat(rejectionOf(PUSH, 503, null)).hasMessage("push gateway answered HTTP 503");
            assertThat(rejectionOf(PUSH, 503, " ")).hasMessage("push gateway answered HTTP 503");
        }

        @Test
        void shouldTreatNoAnswerAtAllAsPermanentOnlyIfNotDeclaredRetried() {
            // camel-http leaves no status when none came back; 0 is in no class
            assertThat(rejectionOf(PUSH, 0, null).isPermanent()).isTrue();
        }
    }

    @Nested
    class Line {

        @Test
        void shouldCountA409OnARetriedKeyAsDelivered() {
            assertThatCode(() -> HttpChannels.check(LINE, 409, "{\"message\":\"The retry key is already accepted\"}"))
                    .doesNotThrowAnyException();
        }

        @Test
        void shouldTryAgainLaterWhenRateLimited() {
            ProviderRejectedException rejected = rejectionOf(LINE, 429, "{\"message\":\"Too many requests\"}");

            assertThat(rejected.isPermanent()).isFalse();
            assertThat(rejected).hasMessage("LINE answered HTTP 429: {\"message\":\"Too many requests\"}");
        }

        @Test
        void shouldFailForGoodOnAnInvalidUserId() {
            assertThat(rejectionOf(LINE, 400, "{\"message\":\"The property, 'to', in the request body is invalid\"}")
                    .isPermanent()).isTrue();
        }

        @Test
        void shouldSendTheChannelAccessTokenAsABearerTokenAndNeverPrintIt() {
            assertThat(LINE.authorization()).isEqualTo("Bearer secret-token");
            assertThat(LINE.toString()).doesNotContain("secret-token");
            assertThat(PUSH.authorization()).isNull();
        }
    }

    /** The rules config/application.properties ships, against the contract's outcomes for each provider. */
    @Nested
    class AsShipped {

        private final dev.notifier.config.ServiceProperties shipped = dev.notifier.config.ServiceProperties.load(Map.of());

        @AfterEach
        void close() {
            shipped.close();
        }

        @ParameterizedTest(name = "LINE HTTP {0}")
        @ValueSource(ints = {200, 202, 409, 429, 500, 503, 400, 401, 403, 404, 408, 410})
        void shouldReadLineAnswersAsTheContractSays(int status) {
            HttpChannel line = HttpChannel.from(Channel.LINE, shipped::find);
            assertOutcome(line, status, status / 100 == 2 || status == 409 ? "SENT"
                    : status == 429 || status >= 500 ? "RETRY" : "FAILED");
        }

        @ParameterizedTest(name = "push HTTP {0}")
        @ValueSource(ints = {200, 204, 408, 429, 500, 503, 400, 401, 404, 409, 410, 422})
        void shouldReadPushAnswersAsTheContractSays(int status) {
            HttpChannel push = HttpChannel.from(Channel.PUSH, shipped::find);
            assertOutcome(push, status, status / 100 == 2 ? "SENT"
                    : status == 408 || status == 429 || status >= 500 ? "RETRY" : "FAILED");
        }

        private void assertOutcome(HttpChannel channel, int status, String expected) {
            ProviderRejectedException rejected = catchThrowableOfType(ProviderRejectedException.class,
                    () -> HttpChannels.check(channel, status, "{}"));
            String outcome = rejected == null ? "SENT" : rejected.isPermanent() ? "FAILED" : "RETRY";
            assertThat(outcome).as("%s answering %d", channel.provider(), status).isEqualTo(expected);
        }
    }

    @Nested
    class Declaration {

        @Test
        void shouldDefaultToSuccessDeliveredAndTheUsualTransientStatusesRetried() {
            HttpChannel sms = channel(new Channel("SMS"), Map.of());

            assertThat(sms.provider()).isEqualTo("SMS provider");
            assertThat(rejectionOf(sms, 503, null).isPermanent()).isFalse();
            assertThat(rejectionOf(sms, 400, null).isPermanent()).isTrue();
            assertThatCode(() -> HttpChannels.check(sms, 202, null)).doesNotThrowAnyException();
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"2xx,abc", "600", "2x", "20", "5XX,99"})
        void shouldRefuseAStatusListItCannotRead(String statuses) {
            assertThatThrownBy(() -> channel(new Channel("SMS"), Map.of("notifier.channel.sms.retry", statuses)))
                    .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("notifier.channel.sms.retry: '");
        }

        @Test
        void shouldReadClassesInAnyCaseAndIgnoreSpaces() {
            HttpChannel sms = channel(new Channel("SMS"), Map.of("notifier.channel.sms.delivered", " 2XX , 409 "));

            assertThatCode(() -> HttpChannels.check(sms, 409, null)).doesNotThrowAnyException();
            assertThatCode(() -> HttpChannels.check(sms, 250, null)).doesNotThrowAnyException();
        }
    }

    private static HttpChannel channel(Channel channel, Map<String, String> properties) {
        return HttpChannel.from(channel, name -> Optional.ofNullable(properties.get(name)));
    }

    private static ProviderRejectedException rejectionOf(HttpChannel channel, int status, String body) {
        ProviderRejectedException rejected =
                catchThrowableOfType(ProviderRejectedException.class, () -> HttpChannels.check(channel, status, body));
        assertThat(rejected).as("HTTP %d must be rejected", status).isNotNull();
        return rejected;
    }
}
