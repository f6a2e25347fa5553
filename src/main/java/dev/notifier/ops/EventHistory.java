package dev.notifier.ops;

import dev.notifier.event.Mask;
import dev.notifier.event.Recipient;
import dev.notifier.event.TransferEvent;
import dev.notifier.inbox.InboxRepository;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One event's whole story, for the status page's search: when the inbox received it, the
 * notification rows it became, every delivery attempt of each and where each ended.
 */
public final class EventHistory {

    /** {@code addresses}: every address the event gave, by field, masked; {@code email} and {@code pushToken} as before. */
    public record Customer(String userId, String name, String locale, String email, String pushToken,
                           Map<String, String> addresses) {
    }

    public record Event(String type, String transferId, String amount, String currency, String occurredAt,
                        Customer recipient) {
    }

    /**
     * @param outcome   SENT, RETRY (back to PENDING with a backoff) or FAILED
     * @param provider  the provider that answered (or was asked last), e.g. {@code push-fallback}; null for an
     *                  attempt that reached none (a rate wait ran out, a deadline before the send)
     * @param claimLost its claim had been taken over when it ended: it did not count as the row's outcome
     * @param traceId   the trace its send belongs to, when tracing was on; else null
     */
    public record Attempt(int attempt, String outcome, String error, String at, String provider, boolean claimLost,
                          String traceId) {
    }

    public record Delivery(String channel, String status, int attempts, String lastError, String recipient,
                           String createdAt, String nextAttemptAt, String sentAt, List<Attempt> history) {
    }

    /** @param receivedAt when the inbox recorded the event; null if it never did */
    public record History(String eventId, String receivedAt, Event event, List<Delivery> notifications) {
    }

    private final JdbcTemplate jdbc;
    private final StoredNotifications stored;

    public EventHistory(DataSource dataSource, StoredNotifications stored) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.stored = stored;
    }

    /** Null when the text is no event id or nothing is known about that event. */
    /** One event's reads, each on an index by the event's id (the inbox key, UNIQUE (event_id, channel), the attempts' index). */
    public static final String RECEIVED = "SELECT created_at FROM inbox WHERE processor_name = ? AND message_id = ?";
    public static final String ROWS = "SELECT channel, status, attempts, last_error, payload, created_at,"
            + " next_attempt_at, sent_at FROM notifications WHERE event_id = ? ORDER BY channel";
    public static final String ATTEMPTS = "SELECT channel, attempt, outcome, error, finished_at, provider, claim_lost, trace_id"
            + " FROM notification_attempts"
            + " WHERE event_id = ? ORDER BY finished_at, id";

    public History find(String eventIdText) {
        UUID eventId;
        try {
            eventId = UUID.fromString(eventIdText.strip());
        } catch (IllegalArgumentException | NullPointerException e) {
            return null;
        }
        String receivedAt = jdbc.query(RECEIVED,
                rs -> rs.next() ? StoredNotifications.iso(rs, "created_at") : null,
                InboxRepository.PROCESSOR_NAME, eventId.toString());
        Map<String, List<Attempt>> attempts = attempts(eventId);
        List<Row> rows = jdbc.query(ROWS, (row, i) -> {
                    TransferEvent event = stored.event(row);
                    Recipient recipient = StoredNotifications.recipientOf(event);
                    String channel = row.getString("channel");
                    return new Row(event, new Delivery(channel, row.getString("status"), row.getInt("attempts"),
                            StoredNotifications.maskedText(row.getString("last_error"), recipient),
                            stored.maskedAddress(recipient, channel),
                            StoredNotifications.iso(row, "created_at"), StoredNotifications.iso(row, "next_attempt_at"),
                            StoredNotifications.iso(row, "sent_at"),
                            masked(attempts.getOrDefault(channel, List.of()), recipient)));
                }, eventId);
        if (receivedAt == null && rows.isEmpty()) {
            return null;
        }
        return new History(eventId.toString(), receivedAt, rows.isEmpty() ? null : describe(rows.get(0).event()),
                rows.stream().map(Row::delivery).toList());
    }

    /** Every row of one event carries the same payload: the event as recorded. */
    private record Row(TransferEvent event, Delivery delivery) {
    }

    private Map<String, List<Attempt>> attempts(UUID eventId) {
        return jdbc.query(ATTEMPTS,
                (row, i) -> Map.entry(row.getString("channel"), new Attempt(row.getInt("attempt"),
                        row.getString("outcome"), row.getString("error"), StoredNotifications.iso(row, "finished_at"),
                        row.getString("provider"), row.getBoolean("claim_lost"), row.getString("trace_id"))),
                eventId).stream()
                .collect(Collectors.groupingBy(Map.Entry::getKey,
                        Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
    }

    private static List<Attempt> masked(List<Attempt> attempts, Recipient recipient) {
        return attempts.stream()
                .map(a -> new Attempt(a.attempt(), a.outcome(), StoredNotifications.maskedText(a.error(), recipient), a.at(),
                        a.provider(), a.claimLost(), a.traceId()))
                .toList();
    }

    /** Null when the stored payload no longer reads: the rows' last_error says why. */
    private static Event describe(TransferEvent event) {
        if (event == null) {
            return null;
        }
        Recipient r = event.recipient();
        return new Event(event.type(), event.transferId(), event.amount().toPlainString(), event.currency(),
                event.occurredAt().toString(), new Customer(r.userId(), Mask.name(r.name()), r.locale(),
                        Mask.address(r.email()), Mask.pushToken(r.pushToken()), masked(r)));
    }

    private static Map<String, String> masked(Recipient recipient) {
        Map<String, String> masked = new java.util.LinkedHashMap<>();
        recipient.addresses().forEach((field, value) -> masked.put(field,
                field.equals(dev.notifier.event.ChannelCatalog.EMAIL_FIELD) ? Mask.address(value) : Mask.pushToken(value)));
        return masked;
    }
}
