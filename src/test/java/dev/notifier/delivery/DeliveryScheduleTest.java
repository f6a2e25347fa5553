package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DeliveryScheduleTest {

    private static final Duration BASE = Duration.ofSeconds(1);
    private static final Duration MAX = Duration.ofMinutes(1);
    private static final Duration LEASE = Duration.ofSeconds(30);
    /** Enough draws that a jitter escaping its bounds would show. */
    private static final int SAMPLES = 500;

    private final DeliverySchedule schedule = new DeliverySchedule(BASE, MAX, LEASE);

    @ParameterizedTest(name = "after attempt {0}: ceiling {1} ms")
    @CsvSource({"1, 1000", "2, 2000", "3, 4000", "4, 8000", "5, 16000", "6, 32000", "7, 60000"})
    void shouldKeepEachDelayBetweenHalfTheCeilingAndTheCeiling(int attempts, long ceilingMillis) {
        assertThat(delaysAfter(attempts)).allSatisfy(delay ->
                assertThat(delay.toMillis()).isBetween(ceilingMillis / 2, ceilingMillis));
    }

    @Test
    void shouldGrowExponentiallyUntilTheMax() {
        for (int attempts = 1; attempts < 6; attempts++) {
            long longestNow = delaysAfter(attempts).stream().mapToLong(Duration::toMillis).max().orElseThrow();
            long shortestNext = delaysAfter(attempts + 1).stream().mapToLong(Duration::toMillis).min().orElseThrow();

            assertThat(shortestNext).as("attempt %d never retries sooner than attempt %d", attempts + 1, attempts)
                    .isGreaterThanOrEqualTo(longestNow)
                    .isGreaterThanOrEqualTo(BASE.toMillis() << (attempts - 1));
        }
    }

    @ParameterizedTest(name = "after attempt {0}")
    @ValueSource(ints = {7, 30, 31, 32, 63, 64, 1_000, Integer.MAX_VALUE})
    void shouldNeverExceedTheMax(int attempts) {
        assertThat(delaysAfter(attempts)).allSatisfy(delay ->
                assertThat(delay).isBetween(MAX.dividedBy(2), MAX));
    }

    @ParameterizedTest(name = "after attempt {0}")
    @ValueSource(ints = {0, -1})
    void shouldTreatNonPositiveAttemptsAsTheFirst(int attempts) {
        assertThat(delaysAfter(attempts)).allSatisfy(delay ->
                assertThat(delay).isBetween(BASE.dividedBy(2), BASE));
    }

    @Test
    void shouldSpreadRetriesWithJitter() {
        // 500 draws from 2001 possible values: a few hundred distinct ones, unless there is no jitter
        assertThat(delaysAfter(3).stream().distinct().count()).isGreaterThan(100);
    }

    @Test
    void shouldScheduleTheNextAttemptWithinTheBackoff() {
        long before = System.currentTimeMillis();

        Date next = schedule.nextAttemptAt(2);

        long after = System.currentTimeMillis();
        assertThat(next.getTime()).isBetween(before + 1000, after + 2000);
    }

    @Test
    void shouldClaimForTheLease() {
        long before = System.currentTimeMillis();

        Date until = schedule.claimUntil();

        long after = System.currentTimeMillis();
        assertThat(until.getTime()).isBetween(before + LEASE.toMillis(), after + LEASE.toMillis());
    }

    private List<Duration> delaysAfter(int attempts) {
        return IntStream.range(0, SAMPLES).mapToObj(i -> schedule.delayAfter(attempts)).toList();
    }
}
