package dev.notifier.bounce;

import dev.notifier.delivery.Attempt;
import dev.notifier.delivery.UndeliverableException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Addresses that bounced for good: an email to one is FAILED at once with {@code suppressed: <address>
 * bounced <status> on <date>}, without contacting the relay, for {@code notifier.bounces.suppress-days}
 * after the bounce (0: never). Mailing a dead address again is how a bank's relay lands on block lists.
 */
public final class Suppressions {

    private static final DateTimeFormatter DAY = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);
    private static final String SUPPRESS = "INSERT INTO email_suppressions (address, status, diagnostic, bounced_at, event_id)"
            + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (address) DO UPDATE SET status = EXCLUDED.status,"
            + " diagnostic = EXCLUDED.diagnostic, bounced_at = EXCLUDED.bounced_at, event_id = EXCLUDED.event_id";
    static final String FIND = "SELECT status, bounced_at, diagnostic FROM email_suppressions WHERE address = ? AND bounced_at > ?";

    /** One address's suppression. */
    public record Entry(String address, String status, Instant bouncedAt, String diagnostic) {
    }

    private final JdbcTemplate jdbc;
    private final Duration window;
    private final boolean checked;
    private final java.util.concurrent.atomic.AtomicLong refused = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @param window  how long a hard bounce suppresses its address; zero turns suppression off
     * @param checked whether sends look (bounces are read); with no bounce mailbox no address is ever suppressed
     */
    public Suppressions(DataSource dataSource, Duration window, boolean checked) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.window = window;
        this.checked = checked && !window.isZero();
    }

    void suppress(String address, String status, String diagnostic, UUID eventId) {
        if (window.isZero()) {
            return;
        }
        jdbc.update(SUPPRESS, normalised(address), status, diagnostic, Timestamp.from(Instant.now()), eventId);
    }

    /** The send route's step before the relay: refuses an email to a suppressed address. */
    public void check(Attempt attempt) {
        if (!checked || attempt.notification().event() == null) {
            return;
        }
        String address = attempt.notification().event().recipient().email();
        find(address).ifPresent(entry -> {
            refused.incrementAndGet();
            throw new UndeliverableException("suppressed: " + address + " bounced " + entry.status() + " on "
                    + DAY.format(entry.bouncedAt()));
        });
    }

    /** Emails refused because their address is suppressed, since the start (a metric). */
    public long suppressedSends() {
        return refused.get();
    }

    /** The address's suppression while it lasts. */
    public Optional<Entry> find(String address) {
        if (address == null || window.isZero()) {
            return Optional.empty();
        }
        List<Entry> found = jdbc.query(FIND, (rs, i) -> new Entry(normalised(address), rs.getString("status"),
                rs.getTimestamp("bounced_at").toInstant(), rs.getString("diagnostic")),
                normalised(address), Timestamp.from(Instant.now().minus(window)));
        return found.stream().findFirst();
    }

    /** Lifts it ({@code preferences unsuppress}); whether there was one. */
    public static boolean lift(JdbcTemplate jdbc, String address) {
        return jdbc.update("DELETE FROM email_suppressions WHERE address = ?", normalised(address)) == 1;
    }

    /** How an address is stored and looked up: without surrounding space, in lower case. */
    public static String normalised(String address) {
        return address.strip().toLowerCase(Locale.ROOT);
    }
}
