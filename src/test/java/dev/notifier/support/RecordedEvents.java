package dev.notifier.support;

import dev.notifier.event.EventParser;
import dev.notifier.event.InvalidEventException;
import dev.notifier.event.TransferEvent;
import dev.notifier.inbox.InboxRepository;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;

/**
 * The service's schema in a test database, and events written into it the way record-event writes
 * them (an inbox key, one PENDING row per channel with the stored payload), so a test can then bend
 * a row into the state it needs.
 */
public final class RecordedEvents {

    private final TestDatabase db;
    private final EventParser parser = new EventParser(65_536);

    public RecordedEvents(TestDatabase db) {
        this.db = db;
        db.migrate();
    }

    /** What a command needs to reach this database. */
    public Map<String, String> settings() {
        return Map.of("notifier.db.url", db.url(), "notifier.db.user", TestDatabase.USER);
    }

    /**
     * @param channels    the event's {@code channels} JSON array, or {@code null} to leave them to the planner
     * @param rowChannels the rows actually written, which a test may want to differ from the plan
     */
    public UUID record(Instant receivedAt, String channels, String... rowChannels) {
        UUID eventId = UUID.randomUUID();
        TransferEvent event = parse(Events.json(eventId, "en", channels));
        inboxKey(eventId.toString(), receivedAt);
        for (String channel : rowChannels) {
            db.jdbc().update("""
                    INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload,
                    created_at, updated_at, next_attempt_at) VALUES (?, ?, 'PENDING', 0, ?, ?, ?, ?, ?, ?)""",
                    eventId, channel, event.recipient().userId(), event.transferId(), parser.toJson(event),
                    at(receivedAt), at(receivedAt), at(receivedAt));
        }
        return eventId;
    }

    private TransferEvent parse(String json) {
        try {
            return parser.parse(json.getBytes(StandardCharsets.UTF_8));
        } catch (InvalidEventException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    public void inboxKey(String messageId, Instant receivedAt) {
        db.jdbc().update("INSERT INTO inbox (processor_name, message_id, created_at) VALUES (?, ?, ?)",
                InboxRepository.PROCESSOR_NAME, messageId, at(receivedAt));
    }

    /** {@code UPDATE notifications SET <assignments>} on one row, e.g. {@code "status = 'FAILED'"}. */
    public void update(UUID eventId, String channel, String assignments, Object... args) {
        Object[] all = new Object[args.length + 2];
        for (int i = 0; i < args.length; i++) {
            all[i] = args[i] instanceof Instant instant ? at(instant) : args[i];
        }
        all[args.length] = eventId;
        all[args.length + 1] = channel;
        int updated = db.jdbc().update("UPDATE notifications SET " + assignments + " WHERE event_id = ? AND channel = ?", all);
        if (updated != 1) {
            throw new IllegalStateException("no row " + eventId + "/" + channel);
        }
    }

    public Map<String, Object> row(UUID eventId, String channel) {
        return db.jdbc().queryForMap("SELECT * FROM notifications WHERE event_id = ? AND channel = ?", eventId, channel);
    }

    public static OffsetDateTime at(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
