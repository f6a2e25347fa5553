package dev.notifier.ops;

import dev.notifier.event.Channel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * How many notifications there are per (channel, status), and how many events the inbox holds,
 * exact: read from the counts PostgreSQL keeps in the transactions that change the rows
 * ({@code notification_counts}, {@code inbox_counts}; V5), a few hundred rows whatever the tables'
 * size, never a count(*) over them. The status page asks for {@link #now()}; the metrics gauges ask
 * for {@link #recent()}, which queries at most once per {@code maxAge} however often Prometheus scrapes.
 */
public final class NotificationCounts {

    /** Every status a notification can have (the table's CHECK constraint), in lifecycle order. */
    public static final List<String> STATUSES = List.of("PENDING", "SENDING", "SENT", "FAILED", "BOUNCED");

    /** @param byChannelAndStatus every (channel, status) pair, zeros included, keyed {@code EMAIL/SENT} */
    public record Snapshot(Map<String, Long> byChannelAndStatus, long inboxSize, Instant takenAt) {

        public long count(Channel channel, String status) {
            return byChannelAndStatus.getOrDefault(key(channel.name(), status), 0L);
        }
    }

    /** Both reads of {@link #now()}, for the plan checks. */
    public static final String BY_CHANNEL_AND_STATUS = "SELECT channel, status, sum(n) AS n FROM notification_counts"
            + " GROUP BY channel, status";
    public static final String INBOX_SIZE = "SELECT coalesce(sum(n), 0) FROM inbox_counts";

    private static final Logger LOG = LoggerFactory.getLogger(NotificationCounts.class);

    private final JdbcTemplate jdbc;
    private final Duration maxAge;
    private final Clock clock;
    private final List<Channel> channels;
    private Snapshot cached;
    private Instant lastAttempt;

    public NotificationCounts(DataSource dataSource, Duration maxAge, Clock clock, List<Channel> channels) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.channels = List.copyOf(channels);
        this.maxAge = maxAge;
        this.clock = clock;
    }

    /** The channels in use, which every snapshot counts (at zero when they have no rows). */
    public List<Channel> channels() {
        return channels;
    }

    public Snapshot now() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Channel channel : channels) {
            STATUSES.forEach(status -> counts.put(key(channel.name(), status), 0L));
        }
        jdbc.query(BY_CHANNEL_AND_STATUS, rs -> {
            counts.put(key(rs.getString("channel"), rs.getString("status")), rs.getLong("n"));
        });
        Long inbox = jdbc.queryForObject(INBOX_SIZE, Long.class);
        return new Snapshot(counts, inbox == null ? 0 : inbox, clock.instant());
    }

    /**
     * At most {@code maxAge} old; empty while the database cannot be read. A failed read is not
     * retried before {@code maxAge} either, so a scrape during an outage does not queue up queries.
     */
    public synchronized Optional<Snapshot> recent() {
        Instant now = clock.instant();
        if (lastAttempt == null || lastAttempt.plus(maxAge).isBefore(now)) {
            lastAttempt = now;
            try {
                cached = now();
            } catch (DataAccessException e) {
                LOG.debug("notification counts not refreshed: {}", e.getMessage());
                cached = null;
            }
        }
        return Optional.ofNullable(cached);
    }

    private static String key(String channel, String status) {
        return channel + "/" + status;
    }
}
