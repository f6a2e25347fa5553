package dev.notifier.event;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.LinkedHashSet;
import java.util.List;
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
    private static final String UNRECOGNIZED_TOKEN = "Unrecognized token '";
    private static final String STORED_UNREADABLE = "stored event payload no longer parses: ";

    private final JsonMapper mapper;
    private final EventRules rules;

    public EventParser(int maxBytes) {
        this(EventRules.defaults(maxBytes));
    }

    public EventParser(EventRules rules) {
        this.rules = rules;
        // every dimension of a document bounded, so a record costs what its bytes are worth
        StreamReadConstraints limits = StreamReadConstraints.builder()
                .maxDocumentLength(rules.maxBytes())
                .maxNestingDepth(32)
                .maxNumberLength(64)
                .maxNameLength(256)
                .maxStringLength(rules.maxBytes())
                .build();
        this.mapper = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(limits).build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
    }

    public TransferEvent parse(byte[] value) throws InvalidEventException {
        if (value == null || value.length == 0) {
            throw new InvalidEventException("empty record value");
        }
        if (value.length > rules.maxBytes()) {
            throw new InvalidEventException("value is " + value.length + " bytes, more than the " + rules.maxBytes() + " allowed");
        }
        JsonNode root = readTree(strictUtf8(value));
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
            JsonNode root = mapper.readTree(json);
            if (root == null || !root.isObject()) {
                throw new InvalidEventException("not a JSON object");
            }
            return toEvent((ObjectNode) root, false);
        } catch (JsonProcessingException e) {
            throw new InvalidEventException(STORED_UNREADABLE + e.getOriginalMessage());
        } catch (InvalidEventException e) {
            throw new InvalidEventException(STORED_UNREADABLE + e.getMessage());
        }
    }

    /** The canonical form stored with each notification: only the fields we understood. */
    public String toJson(TransferEvent event) {
        StringWriter out = new StringWriter(512);
        // written as a stream, not built as a tree: this runs once per recorded event
        try (JsonGenerator json = mapper.getFactory().createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("eventId", event.eventId().toString());
            json.writeStringField("type", event.type());
            json.writeStringField("occurredAt", event.occurredAt().toString());
            json.writeStringField("transferId", event.transferId());
            json.writeStringField("amount", event.amount().toPlainString());
            json.writeStringField("currency", event.currency());
            Recipient r = event.recipient();
            json.writeObjectFieldStart("recipient");
            json.writeStringField("userId", r.userId());
            json.writeStringField("name", r.name());
            json.writeStringField("locale", r.locale());
            json.writeStringField("email", r.email());
            json.writeStringField("pushToken", r.pushToken());
            json.writeEndObject();
            if (event.channels() != null) {
                json.writeArrayFieldStart("channels");
                for (Channel channel : event.channels()) {
                    json.writeString(channel.name());
                }
                json.writeEndArray();
            }
            json.writeEndObject();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toString();
    }

    private static String strictUtf8(byte[] value) throws InvalidEventException {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new InvalidEventException("value is not valid UTF-8");
        }
    }

    private JsonNode readTree(String text) throws InvalidEventException {
        try {
            JsonNode node = mapper.readTree(text);
            if (node == null || node.isMissingNode()) {
                throw new InvalidEventException("value holds no JSON");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new InvalidEventException("not JSON: " + withoutUnrecognizedToken(e.getOriginalMessage()));
        }
    }

    /**
     * Jackson quotes the token it did not recognise, and an unquoted value is just that: a push
     * token or an address must not reach the DLQ header and the log that way.
     */
    private static String withoutUnrecognizedToken(String message) {
        String text = String.valueOf(message);
        int start = text.indexOf(UNRECOGNIZED_TOKEN);
        if (start < 0) {
            return text;
        }
        int tokenStart = start + UNRECOGNIZED_TOKEN.length();
        int tokenEnd = text.indexOf('\'', tokenStart);
        if (tokenEnd < 0) {
            return text.substring(0, start) + "Unrecognized token";
        }
        return text.substring(0, start) + "Unrecognized token of " + (tokenEnd - tokenStart) + " characters"
                + text.substring(tokenEnd + 1);
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
        String name = EventFields.optionalText(node, "recipient.name", "name");
        String locale = EventFields.optionalText(node, "recipient.locale", "locale");
        String email = EventFields.optionalText(node, "recipient.email", "email", EmailAddresses.MAX_OCTETS + 1);
        String pushToken = EventFields.optionalIdentifier(node, "recipient.pushToken", "pushToken",
                EventFields.MAX_FIELD_CHARS);
        if (email != null) {
            // a stored address was accepted once: what SMTPUTF8 allowed then is not taken back
            EmailAddresses.requireDeliverable(email, !incoming || rules.utf8Addresses());
        }
        return new Recipient(userId, name, locale, email, pushToken);
    }

    private static List<Channel> channels(ObjectNode root, Recipient recipient) throws InvalidEventException {
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
        Set<Channel> channels = new LinkedHashSet<>();
        for (JsonNode item : node) {
            if (!item.isTextual() || item.asText().length() > MAX_CHANNEL_NAME) {
                throw new InvalidEventException("channels: " + UntrustedText.quote(item.toString()) + " is not a channel name");
            }
            Channel channel;
            try {
                channel = Channel.valueOf(item.asText());
            } catch (IllegalArgumentException e) {
                throw new InvalidEventException("channels: unknown channel " + UntrustedText.quote(item.asText()));
            }
            if (channel == Channel.EMAIL && recipient.email() == null) {
                throw new InvalidEventException("channels: EMAIL requested but recipient.email is missing");
            }
            if (channel == Channel.PUSH && recipient.pushToken() == null) {
                throw new InvalidEventException("channels: PUSH requested but recipient.pushToken is missing");
            }
            channels.add(channel);
        }
        return List.copyOf(new ArrayList<>(channels));
    }
}
