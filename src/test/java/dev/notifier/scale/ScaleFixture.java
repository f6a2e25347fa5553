package dev.notifier.scale;

import dev.notifier.event.EventParser;
import dev.notifier.event.Recipient;
import dev.notifier.event.TransferEvent;
import dev.notifier.inbox.InboxRepository;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Consumer;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Fills a migrated database with a month of history at bank scale, inside PostgreSQL
 * ({@code INSERT ... SELECT} from {@code generate_series}, no row crosses the wire): {@code rows}
 * notifications (two channels per event), an inbox key per event, an attempt per notification; created
 * over the last 30 days, 99.4 % SENT, 0.5 % FAILED, 0.1 % PENDING due tomorrow (so a running service
 * has nothing to deliver); payloads in the service's own stored form (~600 bytes), readable by it.
 * Then VACUUM ANALYZE, as a long-running database would be, so autovacuum stays out of the measurements.
 */
final class ScaleFixture {

    private static final long CHUNK_EVENTS = 250_000;

    private ScaleFixture() {
    }

    /** @param progress told after every chunk */
    static void fill(JdbcTemplate jdbc, long rows, Consumer<String> progress) {
        long events = Math.max(1, rows / 2);
        String template = payloadTemplate();
        for (long first = 1; first <= events; first += CHUNK_EVENTS) {
            long last = Math.min(events, first + CHUNK_EVENTS - 1);
            String range = "generate_series(" + first + ", " + last + ") g";
            String at = "now() - interval '30 days' * (1 - g::float8 / " + events + ")";
            String eventId = "md5('scale-event-' || g)::uuid";
            jdbc.execute("INSERT INTO inbox (processor_name, message_id, created_at) SELECT '" + InboxRepository.PROCESSOR_NAME + "', " + eventId
                    + "::text, " + at + " FROM " + range);
            jdbc.update("INSERT INTO notifications (event_id, channel, status, attempts, last_error, user_id, transfer_id,"
                    + " payload, created_at, updated_at, next_attempt_at, sent_at)"
                    + " SELECT " + eventId + ", c.channel, s.status, 1,"
                    + " CASE WHEN s.status = 'FAILED' THEN 'push gateway answered HTTP 404: {\"error\":\"device token not registered\"}' END,"
                    + " 'u-' || (g % 1000000), 'TRX-' || g,"
                    + " replace(replace(replace(?, '00000000-0000-4000-8000-000000000000', " + eventId + "::text),"
                    + " 'TRX-SCALE', 'TRX-' || g), 'u-scale', 'u-' || (g % 1000000)),"
                    + " t.at, t.at + interval '2 seconds',"
                    + " CASE WHEN s.status = 'PENDING' THEN now() + interval '1 day' ELSE t.at END,"
                    + " CASE WHEN s.status = 'SENT' THEN t.at + interval '2 seconds' END"
                    + " FROM " + range + " CROSS JOIN (VALUES ('EMAIL'), ('PUSH')) AS c(channel)"
                    + " CROSS JOIN LATERAL (SELECT " + at + " AS at) AS t"
                    + " CROSS JOIN LATERAL (SELECT CASE WHEN g % 200 = 0 AND c.channel = 'PUSH' THEN 'FAILED'"
                    + "   WHEN g % 500 = 1 THEN 'PENDING' ELSE 'SENT' END AS status) AS s", template);
            jdbc.execute("INSERT INTO notification_attempts (event_id, channel, attempt, outcome, error, finished_at)"
                    + " SELECT event_id, channel, 1, CASE status WHEN 'SENT' THEN 'SENT' WHEN 'FAILED' THEN 'FAILED'"
                    + " ELSE 'RETRY' END, last_error, updated_at FROM notifications"
                    + " WHERE event_id IN (SELECT " + eventId + " FROM " + range + ")");
            progress.accept(2 * last + " of " + 2 * events + " notification rows");
        }
        jdbc.execute("VACUUM ANALYZE inbox");
        jdbc.execute("VACUUM ANALYZE notifications");
        jdbc.execute("VACUUM ANALYZE notification_attempts");
    }

    /** The service's stored form of a typical event, with placeholders the SQL replaces per row. */
    private static String payloadTemplate() {
        TransferEvent event = new TransferEvent(UUID.fromString("00000000-0000-4000-8000-000000000000"), "TransferCompleted",
                Instant.parse("2026-11-20T10:15:30Z"), "TRX-SCALE", new BigDecimal("1500.00"), "THB",
                Recipient.of("u-scale", "สมชาย ใจดี", "th-TH", "somchai.jaidee@example.com",
                        "fcm-token-3f9a1c2b7d8e4f60a1b2c3d4e5f60718293a4b5c6d7e8f90", null),
                null);
        return new EventParser(65_536).toJson(event);
    }
}
