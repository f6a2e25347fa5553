package dev.notifier.event;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * An event's JSON, read with every dimension bounded (so a record costs what its bytes are worth,
 * and a reason never quotes what it could not read) and written in the canonical stored form.
 */
final class EventJson {

    private static final String UNRECOGNIZED_TOKEN = "Unrecognized token '";

    private final JsonMapper mapper;

    EventJson(int maxBytes) {
        StreamReadConstraints limits = StreamReadConstraints.builder()
                .maxDocumentLength(maxBytes)
                .maxNestingDepth(32)
                .maxNumberLength(64)
                .maxNameLength(256)
                .maxStringLength(maxBytes)
                .build();
        this.mapper = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(limits).build())
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
    }

    /** A record's value: strict UTF-8, then JSON. */
    JsonNode read(byte[] value) throws InvalidEventException {
        return readTree(strictUtf8(value));
    }

    /** A payload Notifier stored itself. */
    JsonNode readStored(String json) throws InvalidEventException {
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidEventException(e.getOriginalMessage());
        }
    }

    /** The canonical form stored with each notification: only the fields Notifier understood. */
    String write(TransferEvent event) {
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
            for (var address : r.addresses().entrySet()) {
                json.writeStringField(address.getKey(), address.getValue());
            }
            json.writeEndObject();
            if (event.channels() != null) {
                json.writeArrayFieldStart("channels");
                for (Channel channel : event.channels()) {
                    json.writeString(channel.name());
                }
                json.writeEndArray();
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
}
