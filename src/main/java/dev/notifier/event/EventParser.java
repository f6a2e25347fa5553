package dev.notifier.event;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a Kafka record value into a {@link TransferEvent}, or says in one line why it never will.
 * Follows the contract's event JSON: required fields are checked, unknown fields ignored.
 */
public class EventParser {

    private static final Pattern UNRECOGNIZED_TOKEN = Pattern.compile("Unrecognized token '([^']*)'");

    private final JsonMapper mapper = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private final int maxBytes;

    public EventParser(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    public TransferEvent parse(byte[] value) throws InvalidEventException {
        if (value == null || value.length == 0) {
            throw new InvalidEventException("empty record value");
        }
        if (value.length > maxBytes) {
            throw new InvalidEventException("value is " + value.length + " bytes, more than the " + maxBytes + " allowed");
        }
        JsonNode root = readTree(strictUtf8(value));
        if (!root.isObject()) {
            throw new InvalidEventException("value is a JSON " + root.getNodeType().toString().toLowerCase() + ", not an object");
        }
        return toEvent((ObjectNode) root, true);
    }

    /**
     * Reads back what {@link #toJson} stored; it was valid when stored, so failure is a bug. The
     * {@link ColumnLimits} are not applied again: the row holding the payload is the proof that its
     * values fitted their columns (PostgreSQL counts code points, so a stored value may be longer in
     * UTF-16 units than an incoming one may be).
     */
    public TransferEvent fromStored(String json) {
        try {
            return toEvent((ObjectNode) mapper.readTree(json), false);
        } catch (JsonProcessingException | InvalidEventException e) {
            throw new IllegalStateException("stored event payload no longer parses: " + e.getMessage(), e);
        }
    }

    /** The canonical form stored with each notification: only the fields we understood. */
    public String toJson(TransferEvent event) {
        ObjectNode root = mapper.createObjectNode();
        root.put("eventId", event.eventId().toString());
        root.put("type", event.type());
        root.put("occurredAt", event.occurredAt().toString());
        root.put("transferId", event.transferId());
        root.put("amount", event.amount().toPlainString());
        root.put("currency", event.currency());
        Recipient r = event.recipient();
        ObjectNode recipient = root.putObject("recipient");
        recipient.put("userId", r.userId());
        recipient.put("name", r.name());
        recipient.put("locale", r.locale());
        recipient.put("email", r.email());
        recipient.put("pushToken", r.pushToken());
        if (event.channels() != null) {
            ArrayNode channels = root.putArray("channels");
            event.channels().forEach(c -> channels.add(c.name()));
        }
        return root.toString();
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
        Matcher token = UNRECOGNIZED_TOKEN.matcher(String.valueOf(message));
        return token.find()
                ? token.replaceFirst("Unrecognized token of " + token.group(1).length() + " characters")
                : message;
    }

    /** @param incoming a record from Kafka, whose fields must fit the columns they will be stored in */
    private TransferEvent toEvent(ObjectNode root, boolean incoming) throws InvalidEventException {
        UUID eventId = EventFields.uuid(root, "eventId");
        String type = EventFields.requiredText(root, "type");
        Instant occurredAt = EventFields.instant(root, "occurredAt");
        String transferId = EventFields.requiredText(root, "transferId", "transferId",
                incoming ? ColumnLimits.TRANSFER_ID : EventFields.MAX_FIELD_CHARS);
        BigDecimal amount = EventFields.amount(root, "amount");
        String currency = EventFields.currency(root, "currency");
        JsonNode recipientNode = root.get("recipient");
        if (recipientNode == null || !recipientNode.isObject()) {
            throw new InvalidEventException("recipient: missing or not an object");
        }
        Recipient recipient = recipient((ObjectNode) recipientNode, incoming);
        List<Channel> channels = channels(root, recipient);
        return new TransferEvent(eventId, type, occurredAt, transferId, amount, currency, recipient, channels);
    }

    private static Recipient recipient(ObjectNode node, boolean incoming) throws InvalidEventException {
        String userId = EventFields.requiredText(node, "recipient.userId", "userId",
                incoming ? ColumnLimits.USER_ID : EventFields.MAX_FIELD_CHARS);
        String name = EventFields.optionalText(node, "recipient.name", "name");
        String locale = EventFields.optionalText(node, "recipient.locale", "locale");
        String email = EventFields.optionalText(node, "recipient.email", "email");
        String pushToken = EventFields.optionalText(node, "recipient.pushToken", "pushToken");
        if (email != null) {
            EmailAddresses.requireSingleMailbox(email);
        }
        if (pushToken != null && (pushToken.isBlank() || EventFields.hasControl(pushToken))) {
            throw new InvalidEventException("recipient.pushToken: blank or contains control characters");
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
        Set<Channel> channels = new LinkedHashSet<>();
        for (JsonNode item : node) {
            if (!item.isTextual()) {
                throw new InvalidEventException("channels: " + item + " is not a channel name");
            }
            Channel channel;
            try {
                channel = Channel.valueOf(item.asText());
            } catch (IllegalArgumentException e) {
                throw new InvalidEventException("channels: unknown channel '" + item.asText() + "'");
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
