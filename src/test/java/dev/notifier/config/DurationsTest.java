package dev.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({"30d, PT720H", "12h, PT12H", "15m, PT15M", "45s, PT45S", "' 7D ', PT168H"})
    void shouldReadAnAmountAndAUnit(String text, Duration expected) {
        assertThat(Durations.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"", "30", "d", "30 days", "1d12h", "-1d", "PT1H", "1w"})
    void shouldRejectAnythingElseSayingWhatItExpects(String text) {
        assertThatThrownBy(() -> Durations.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'" + text + "' is not a duration such as 30d, 12h, 15m or 45s");
    }
}
