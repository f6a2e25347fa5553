package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A send must fit in the half lease a sender starts with; the end-to-end check is in LeaseTooShortTest. */
class SendWithinLeaseTest {

    @Test
    void shouldNameEverySendThatMayOutliveHalfTheLease() {
        Map<String, Duration> sends = new LinkedHashMap<>();
        sends.put("fits", Duration.ofSeconds(4));
        sends.put("exactly half", Duration.ofSeconds(5));
        sends.put("too slow", Duration.ofMillis(5_001));
        sends.put("no timeout", null);

        assertThat(SendWithinLease.overruns(Duration.ofSeconds(10), sends))
                .hasSize(2)
                .anySatisfy(m -> assertThat(m).contains("too slow may take 5001 ms").contains("(5000 ms) left"))
                .anySatisfy(m -> assertThat(m).contains("no timeout may take forever"));
    }
}
