package dev.notifier.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.notifier.event.Channel;
import dev.notifier.event.Recipient;
import dev.notifier.event.TransferEvent;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The example event from CONTRACT.md ("Incoming event"), for unit tests: as a JSON tree to bend
 * into invalid shapes, and as a {@link TransferEvent} to vary field by field.
 */
public final class ContractEvent {

    public static final UUID EVENT_ID = UUID.fromString("0b9f3c1e-7a51-4c1e-9a43-2f1f5c9d8e01");
    public static final String NAME = "สมชาย ใจดี";
    public static final String EMAIL = "somchai@example.com";
    public static final String PUSH_TOKEN = "device-token-abc";
    public static final String LINE_USER_ID = "U4af4980629d0f5a7cd2bd8b86c5c2f01";

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private static final String JSON = """
            {
              "eventId": "0b9f3c1e-7a51-4c1e-9a43-2f1f5c9d8e01",
              "type": "TransferCompleted",
              "occurredAt": "2026-12-02T10:15:30Z",
              "transferId": "TRX-000123",
              "amount": "1500.00",
              "currency": "THB",
              "recipient": {
                "userId": "u-42",
                "name": "สมชาย ใจดี",
                "locale": "th-TH",
                "email": "somchai@example.com",
                "pushToken": "device-token-abc"
              },
              "channels": ["EMAIL", "PUSH"]
            }
            """;

    private ContractEvent() {
    }

    /** The contract's example, verbatim, as UTF-8. */
    public static byte[] bytes() {
        return JSON.getBytes(StandardCharsets.UTF_8);
    }

    /** A fresh, mutable copy of the contract's example. */
    public static ObjectNode tree() {
        try {
            return (ObjectNode) MAPPER.readTree(JSON);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The contract's example after {@code change}, as UTF-8 JSON. */
    public static byte[] bytesWith(Consumer<ObjectNode> change) {
        ObjectNode root = tree();
        change.accept(root);
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static ObjectNode recipientOf(ObjectNode root) {
        return (ObjectNode) root.get("recipient");
    }

    /** The contract's example as a parsed event, ready to vary. */
    public static Builder event() {
        return new Builder();
    }

    public static final class Builder {
        private UUID eventId = EVENT_ID;
        private String transferId = "TRX-000123";
        private BigDecimal amount = new BigDecimal("1500.00");
        private String currency = "THB";
        private String userId = "u-42";
        private String name = NAME;
        private String locale = "th-TH";
        private String email = EMAIL;
        private String pushToken = PUSH_TOKEN;
        private String lineUserId;
        private List<Channel> channels = List.of(Channel.EMAIL, Channel.PUSH);

        private Builder() {
        }

        public Builder eventId(UUID value) {
            eventId = value;
            return this;
        }

        public Builder amount(String value) {
            amount = new BigDecimal(value);
            return this;
        }

        public Builder name(String value) {
            name = value;
            return this;
        }

        public Builder locale(String value) {
            locale = value;
            return this;
        }

        public Builder email(String value) {
            email = value;
            return this;
        }

        public Builder pushToken(String value) {
            pushToken = value;
            return this;
        }

        public Builder lineUserId(String value) {
            lineUserId = value;
            return this;
        }

        /** {@code null} means the producer left the choice of channels to us. */
        public Builder channels(Channel... value) {
            channels = value == null ? null : List.of(value);
            return this;
        }

        public Builder noChannels() {
            return channels((Channel[]) null);
        }

        public TransferEvent build() {
            return new TransferEvent(eventId, "TransferCompleted", Instant.parse("2026-12-02T10:15:30Z"), transferId,
                    amount, currency, Recipient.of(userId, name, locale, email, pushToken, lineUserId), channels);
        }
    }
}
