package dev.notifier.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Turns a Kafka record value into a {@link TransferEvent}, or says in one line why it never will.
 * Follows the contract's event JSON: required fields are checked, unknown fields ignored.
 */
public class EventParser {

    /** The only event type Notifier handles; anything else is a record it can never process. */
    public static final String TRANSFER_COMPLETED = "TransferCompleted";
    /** More items than channels exist is no list of channels (and costs as much as it is long). */
    static final int MAX_CHANNELS = 16;
    private static final int MAX_CHANNEL_NAME = 32;
    private static final String STORED_UNREADABLE = "stored event payload no longer parses: ";

    private final EventJson json;
    private final EventRules rules;

    public EventParser(int maxBytes) {
        this(EventRules.defaults(maxBytes));
    }

    public EventParser(EventRules rules) {
        this.rules = rules;
        this.json = new EventJson(rules.maxBytes());
    }

    public TransferEvent parse(byte[] value) throws InvalidEventException {
        if (value == null || value.length == 0) {
            throw new InvalidEventException("empty record value");
        }
        if (value.length > rules.maxBytes()) {
            throw new InvalidEventException("value is " + value.length + " bytes, more than the " + rules.maxBytes() + " allowed");
        }
        JsonNode root = json.read(value);
        if (!root.isObject()) {
            throw new InvalidEventException("value is a JSON " + root.getNodeType().toString().toLowerCase() + ", not an object");
        }
        return toEvent((ObjectNode) root, true);
    }

    /**
     * Reads back what {@link #toJson} stored. The {@link ColumnLimits} and the checks that depend on
     * the time (occurredAt's window) or on configuration (non-ASCII addresses) are not applied
     * again: the row holding the payload is the proof that it passed them when it arrived. A payload
     * that no longer parses is an {@link InvalidEventException}: retrying cannot repair it.
     */
    public TransferEvent fromStored(String json) throws InvalidEventException {
        try {
            JsonNode root = this.json.readStored(json);
            if (root == null || !root.isObject()) {
                throw new InvalidEventException("not a JSON object");
            }
            return toEvent((ObjectNode) root, false);
        } catch (InvalidEventException e) {
            throw new InvalidEventException(STORED_UNREADABLE + e.getMessage());
        }
    }

    /** The channels in use, which events may name and the planner chooses from. */
    public ChannelCatalog channels() {
        return rules.channels();
    }

    /** The canonical form stored with each notification: only the fields we understood. */
    public String toJson(TransferEvent event) {
        return json.write(event);
    }

    /** @param incoming a record from Kafka: held to the column widths, the time window and the address policy */
    private TransferEvent toEvent(ObjectNode root, boolean incoming) throws InvalidEventException {
        UUID eventId = EventFields.uuid(root, "eventId");
        String type = EventFields.requiredText(root, "type");
        if (!TRANSFER_COMPLETED.equals(type)) {
            throw new InvalidEventException("type: " + UntrustedText.quote(type) + " is not " + TRANSFER_COMPLETED
                    + ", the only event type Notifier handles");
        }
        Instant occurredAt = EventFields.instant(root, "occurredAt");
        if (incoming) {
            requireWithinWindow(occurredAt);
        }
        String transferId = EventFields.requiredIdentifier(root, "transferId", "transferId",
                incoming ? ColumnLimits.TRANSFER_ID : EventFields.MAX_FIELD_CHARS);
        if (incoming) {
            rules.transferIds().check(transferId);
        }
        Currency currency = EventFields.currency(root, "currency");
        BigDecimal amount = EventFields.amount(root, "amount", currency);
        JsonNode recipientNode = root.get("recipient");
        if (recipientNode == null || !recipientNode.isObject()) {
            throw new InvalidEventException("recipient: missing or not an object");
        }
        Recipient recipient = recipient((ObjectNode) recipientNode, incoming);
        List<Channel> channels = channels(root, recipient);
        return new TransferEvent(eventId, type, occurredAt, transferId, amount, currency.getCurrencyCode(), recipient,
                channels);
    }

    private void requireWithinWindow(Instant occurredAt) throws InvalidEventException {
        Instant now = rules.clock().instant();
        if (occurredAt.isAfter(now.plus(rules.maxFuture()))) {
            throw new InvalidEventException("occurredAt: " + occurredAt + " is more than " + rules.maxFuture()
                    + " in the future (notifier.event.max-future)");
        }
        if (occurredAt.isBefore(now.minus(rules.maxPast()))) {
            throw new InvalidEventException("occurredAt: " + occurredAt + " is more than " + rules.maxPast()
                    + " in the past (notifier.event.max-past)");
        }
    }

    private Recipient recipient(ObjectNode node, boolean incoming) throws InvalidEventException {
        String userId = EventFields.requiredIdentifier(node, "recipient.userId", "userId",
                incoming ? ColumnLimits.USER_ID : EventFields.MAX_FIELD_CHARS);
        String name = EventFields.optionalName(node, "recipient.name", "name");
        String locale = EventFields.optionalText(node, "recipient.locale", "locale");
        Map<String, String> addresses = new LinkedHashMap<>();
        for (String field : rules.channels().addressFields()) {
            String address;
            if (field.equals(ChannelCatalog.EMAIL_FIELD)) {
                address = EventFields.optionalText(node, "recipient.email", field, EmailAddresses.MAX_OCTETS + 1);
                if (address != null) {
                    // a stored address was accepted once: what SMTPUTF8 allowed then is not taken back
                    EmailAddresses.requireDeliverable(address, !incoming || rules.utf8Addresses());
                }
            } else {
                // a token or a user id: one visible word, whatever the provider makes of it
                address = EventFields.optionalIdentifier(node, "recipient." + field, field, EventFields.MAX_FIELD_CHARS);
            }
            addresses.put(field, address);
        }
        return new Recipient(userId, name, locale, addresses);
    }

    /** The channels the event names, each known and with its address in the recipient; {@code null} when it names none. */
    private List<Channel> channels(ObjectNode root, Recipient recipient) throws InvalidEventException {
        JsonNode node = root.get("channels");
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw new InvalidEventException("channels: not an array");
        }
        if (node.size() > MAX_CHANNELS) {
            throw new InvalidEventException("channels: " + node.size() + " items, more than the " + MAX_CHANNELS + " allowed");
        }
        ChannelCatalog catalog = rules.channels();
        Set<Channel> channels = new LinkedHashSet<>();
        for (JsonNode item : node) {
            if (!item.isTextual() || item.asText().length() > MAX_CHANNEL_NAME) {
                throw new InvalidEventException("channels: " + UntrustedText.quote(item.toString()) + " is not a channel name");
            }
            Channel channel = known(item.asText(), catalog);
            String field = catalog.addressField(channel);
            if (recipient.address(field) == null) {
                throw new InvalidEventException("channels: " + channel + " requested but recipient." + field + " is missing");
            }
            channels.add(channel);
        }
        return List.copyOf(new ArrayList<>(channels));
    }

    private static Channel known(String name, ChannelCatalog catalog) throws InvalidEventException {
        try {
            Channel channel = new Channel(name);
            if (catalog.contains(channel)) {
                return channel;
            }
        } catch (IllegalArgumentException e) {
            // not even shaped like a channel name: as unknown as any other
        }
        throw new InvalidEventException("channels: unknown channel " + UntrustedText.quote(name));
    }
}
