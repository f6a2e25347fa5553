package dev.notifier.delivery.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.notifier.delivery.SendDeadline;
import dev.notifier.support.DatabaseTestBase;
import dev.notifier.support.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One provider's rate shared by three instances through a real PostgreSQL: each instance here is a
 * SharedRate of its own (its own local permits) over its own connection pool, with several sender
 * threads each, all as hungry as they can be. What they are granted, by the wall clock they send at,
 * must stay at the rate in every 1-s window, aligned or not, and not far below it.
 */
class SharedRateTest extends DatabaseTestBase {

    private static final int RATE = 50;
    private final List<HikariDataSource> pools = new ArrayList<>();

    @BeforeEach
    void pools() {
        for (int i = 0; i < 3; i++) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(db.url());
            config.setUsername(TestDatabase.USER);
            config.setMaximumPoolSize(2);
            pools.add(new HikariDataSource(config));
        }
    }

    @AfterEach
    void closePools() {
        pools.forEach(HikariDataSource::close);
    }

    @Test
    void shouldHoldTheRateForTheWholeDeploymentWhateverTheInstances() throws Exception {
        List<SharedRate> instances = pools.stream().map(pool -> new SharedRate(pool, "push-primary", RATE)).toList();
        List<Long> grantedAtMillis = Collections.synchronizedList(new ArrayList<>());
        long endAt = System.currentTimeMillis() + 4_500;
        ExecutorService senders = Executors.newFixedThreadPool(12);
        for (int i = 0; i < 12; i++) {
            SharedRate instance = instances.get(i % 3);
            senders.submit(() -> {
                while (System.currentTimeMillis() < endAt) {
                    try {
                        instance.acquire(Duration.ofSeconds(2));
                        grantedAtMillis.add(System.currentTimeMillis());
                    } catch (SendDeadline.TooLateToSend e) {
                        // a permit not given in time: nothing sent, nothing counted
                    }
                }
                return null;
            });
        }
        senders.shutdown();
        assertThat(senders.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

        List<Long> sends = grantedAtMillis.stream().sorted().toList();
        // every 1-s window: at most the rate and one 100-ms slot more, whatever its start
        int busiest = 0;
        for (int first = 0, last = 0; last < sends.size(); last++) {
            while (sends.get(last) - sends.get(first) >= 1000) {
                first++;
            }
            busiest = Math.max(busiest, last - first + 1);
        }
        assertThat(busiest).as("sends in the busiest 1-s window").isLessThanOrEqualTo(RATE + RATE / 10);
        // and the budget is used: the whole seconds in the middle of the run
        long from = sends.get(0) / 1000 + 1;
        long to = sends.get(sends.size() - 1) / 1000 - 1;
        long inWholeSeconds = sends.stream().filter(t -> t / 1000 >= from && t / 1000 <= to).count();
        assertThat((double) inWholeSeconds / (to - from + 1)).as("sends a second on average").isGreaterThanOrEqualTo(RATE * 0.9);
    }

    @Test
    void shouldGiveUpWithoutSendingWhenNoSlotComesInTime() {
        SharedRate slow = new SharedRate(pools.get(0), "line-primary", 1);
        // a rate of 1/s has one slot with a permit each second; two at once cannot both have it within 300 ms
        assertThatThrownBy(() -> {
            slow.acquire(Duration.ofMillis(1500));
            slow.acquire(Duration.ofMillis(300));
        }).isInstanceOf(SendDeadline.TooLateToSend.class)
                .hasMessageContaining("line-primary is at its rate of 1/s for the whole deployment");
    }
}
