package dev.notifier.faults;

import dev.notifier.support.Events;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What a scenario publishes, recorded before it is sent: valid events (each 1–4 times, some copies
 * under another key so another partition and consumer see them concurrently), optional poison
 * records, and the (event, channel) outcomes the run must end with. Seeded: the same seed, the same plan.
 */
final class EventPlan {

    /** A push token the suite's gateway rejects for good (HTTP 400): its row must end FAILED. */
    static final String REJECTED_TOKEN = "rejected-device";

    final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    final Set<String> expectedSent = new LinkedHashSet<>();
    final Set<String> expectedFailed = new LinkedHashSet<>();
    final Map<String, byte[]> poison = new LinkedHashMap<>();
    int validEvents;

    static EventPlan of(String topic, long seed, int events, boolean withPoison) {
        EventPlan plan = new EventPlan();
        Random random = new Random(seed);
        for (int i = 0; i < events; i++) {
            plan.addEvent(topic, random, i);
        }
        if (withPoison) {
            plan.addPoison(topic);
            plan.addSafeOddities(topic);
        }
        Collections.shuffle(plan.records, random);
        if (withPoison) {
            plan.addConflict(topic);
        }
        return plan;
    }

    private void addEvent(String topic, Random random, int i) {
        UUID eventId = new UUID(random.nextLong(), random.nextLong());
        String channels = switch (i % 10) {
            case 0 -> "[\"EMAIL\"]";
            case 1 -> "[\"PUSH\"]";
            case 2 -> "[\"LINE\"]";
            default -> null;
        };
        // every third recipient, and every one whose event names LINE, has a LINE user id
        boolean onLine = i % 3 == 0 || i % 10 == 2;
        String locale = i % 2 == 0 ? "th-TH" : "en-GB";
        String json = onLine ? Events.withLine(eventId, locale, lineUserId(eventId), channels)
                : Events.json(eventId, locale, channels);
        boolean rejected = i % 50 == 7;
        if (rejected) {
            json = json.replaceFirst("\"pushToken\":\"[^\"]+\"", "\"pushToken\":\"" + REJECTED_TOKEN + "\"");
        }
        if (channels == null || channels.contains("EMAIL")) {
            expectedSent.add(eventId + ":EMAIL");
        }
        if (channels == null || channels.contains("PUSH")) {
            (rejected ? expectedFailed : expectedSent).add(eventId + ":PUSH");
        }
        if (onLine && (channels == null || channels.contains("LINE"))) {
            expectedSent.add(eventId + ":LINE");
        }
        int copies = 1 + random.nextInt(4);
        for (int c = 0; c < copies; c++) {
            String key = c % 2 == 0 ? "TRX-" + i : "copy-" + i + "-" + c;
            records.add(Events.record(topic, key, json));
        }
        validEvents++;
    }

    /** Every class of record that can never be processed, as the contract lists them, and then some. */
    private void addPoison(String topic) {
        String valid = Events.json(UUID.randomUUID(), "en", null);
        poison.put("not-json", bytes("transfer completed!"));
        poison.put("empty", new byte[0]);
        poison.put("json-array", bytes("[" + valid + "]"));
        poison.put("missing-event-id", bytes(valid.replaceFirst("\"eventId\":\"[^\"]+\",", "")));
        poison.put("malformed-event-id", bytes(valid.replaceFirst("\"eventId\":\"[^\"]+\"", "\"eventId\":\"0b9f-nope\"")));
        poison.put("bad-amount", bytes(valid.replace("\"1500.00\"", "\"1,500.00\"")));
        poison.put("bad-currency", bytes(valid.replace("\"THB\"", "\"BAHT\"")));
        poison.put("bad-instant", bytes(valid.replace("2026-12-02T10:15:30Z", "yesterday")));
        poison.put("unknown-channel", bytes(Events.json(UUID.randomUUID(), "en", "[\"EMAIL\",\"SMS\"]")));
        poison.put("crlf-address", bytes(valid.replaceFirst("\"email\":\"[^\"]+\"",
                "\"email\":\"victim@example.com\\\\r\\\\nBcc: spy@evil.example\"")));
        poison.put("two-addresses", bytes(valid.replaceFirst("\"email\":\"[^\"]+\"",
                "\"email\":\"victim@example.com, spy@evil.example\"")));
        byte[] oversize = new byte[256 * 1024];
        Arrays.fill(oversize, (byte) 'x');
        poison.put("oversize", oversize);
        poison.put("wrong-encoding", "{\"name\":\"สมชาย\"}".getBytes(java.nio.charset.Charset.forName("TIS-620")));
        poison.put("missing-recipient", bytes(valid.replaceFirst(",\\s*\"recipient\":\\{[^}]+\\}", "")));
        // the security baseline's classes (issue 11): business rules, invisible characters, addresses
        // that cannot be delivered exactly as written, unbounded arrays and nesting
        poison.put("other-type", bytes(valid.replace("\"TransferCompleted\"", "\"TransferFailed\"")));
        poison.put("finer-than-minor-unit", bytes(valid.replace("\"1500.00\"", "\"1500.001\"")));
        poison.put("test-currency", bytes(valid.replace("\"THB\"", "\"XTS\"")));
        poison.put("far-future", bytes(valid.replace("2026-12-02T10:15:30Z", "2999-01-01T00:00:00Z")));
        poison.put("epoch-date", bytes(valid.replace("2026-12-02T10:15:30Z", "1970-01-01T00:00:00Z")));
        poison.put("zero-width-id", bytes(valid.replaceFirst("\"transferId\":\"TRX-", "\"transferId\":\"TRX-\u200B")));
        poison.put("homoglyph-address", bytes(valid.replaceFirst("\"email\":\"user-", "\"email\":\"\u0443ser-")));
        // LINE's address field (issue 14): an identifier, so invisible, control or JSON-breaking content never reaches a request
        poison.put("zero-width-line-user-id", bytes(Events.withLine(UUID.randomUUID(), "en", "U4af4980629\u200Bd0f5a7", "[\"LINE\"]")));
        poison.put("crlf-line-user-id", bytes(Events.withLine(UUID.randomUUID(), "en", "Uabc\\r\\nX-Injected: 1", "[\"LINE\"]")));
        poison.put("line-without-user-id", bytes(Events.json(UUID.randomUUID(), "en", "[\"LINE\"]")));
        poison.put("quoted-address", bytes(valid.replaceFirst("\"email\":\"[^\"]+\"",
                "\"email\":\"\\\"a@b\\\"@example.com\"")));
        poison.put("too-many-channels", bytes(valid.replaceFirst("}$", ",\"channels\":[" + "\"EMAIL\",".repeat(40)
                + "\"PUSH\"]}").replaceFirst("\\s+$", "")));
        // a transferId is printed in the bank's messages (issue 24): never a link, always the configured shape
        poison.put("url-transfer-id", bytes(valid.replaceFirst("\"transferId\":\"[^\"]+\"", "\"transferId\":\"https://evil.example/x\"")));
        poison.put("off-pattern-transfer-id", bytes(valid.replaceFirst("\"transferId\":\"[^\"]+\"", "\"transferId\":\"TRX#000123\"")));
        poison.put("deep-nesting", bytes(valid.replaceFirst("\\{", "{\"meta\":" + "[".repeat(500) + "]".repeat(500) + ",")));
        poison.forEach((kind, value) -> {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, bytes(kind), value);
            // headers named like what the routes and camel-kafka read: they must change nothing
            record.headers().add("optedOutChannels", bytes("EMAIL")).add("kafka.OVERRIDE_TOPIC", bytes("elsewhere"));
            records.add(record);
        });
    }

    /**
     * An event, then a record with its eventId and another recipient (issue 24): the first stands and
     * is delivered, the second is a conflict for the DLQ. Same key, after the shuffle: in that order.
     */
    private void addConflict(String topic) {
        UUID eventId = UUID.randomUUID();
        String genuine = Events.json(eventId, "en", "[\"EMAIL\"]");
        records.add(Events.record(topic, "conflict", genuine));
        expectedSent.add(eventId + ":EMAIL");
        validEvents++;
        byte[] forged = bytes(genuine.replaceFirst("\"email\":\"[^\"]+\"", "\"email\":\"spy@evil.example\""));
        poison.put("conflict", forged);
        records.add(new ProducerRecord<>(topic, bytes("conflict"), forged));
    }

    /** Odd but valid: delivered, and delivered safely (no header injection, HTML as text). */
    private void addSafeOddities(String topic) {
        UUID crlfName = UUID.randomUUID();
        String json = Events.json(crlfName, "en", "[\"EMAIL\"]").replace("สมชาย ใจดี", "Eve\\r\\nBcc: spy@evil.example");
        records.add(Events.record(topic, "crlf-name", json));
        expectedSent.add(crlfName + ":EMAIL");
        UUID htmlName = UUID.randomUUID();
        records.add(Events.record(topic, "html-name", Events.json(htmlName, "en", "[\"EMAIL\"]")
                .replace("สมชาย ใจดี", "<script>alert(1)</script>")));
        expectedSent.add(htmlName + ":EMAIL");
        // bidi controls and zero-width characters in a name: stripped, then delivered
        UUID bidiName = UUID.randomUUID();
        records.add(Events.record(topic, "bidi-name", Events.json(bidiName, "en", "[\"EMAIL\"]")
                .replace("สมชาย ใจดี", "Eve \u202Egnp.exe\u202C\u200B")));
        expectedSent.add(bidiName + ":EMAIL");
        UUID headerInjection = UUID.randomUUID();
        ProducerRecord<byte[], byte[]> withHeaders = Events.record(topic, "record-headers",
                Events.json(headerInjection, "en", "[\"EMAIL\"]"));
        withHeaders.headers().add("Bcc", bytes("spy@evil.example")).add("To", bytes("spy@evil.example"))
                .add("optedOutChannels", bytes("EMAIL")).add("freshClaim", bytes("true"))
                .add("kafka.OVERRIDE_TOPIC", bytes("elsewhere")).add("claimToken", bytes("stolen"));
        records.add(withHeaders);
        expectedSent.add(headerInjection + ":EMAIL");
        validEvents += 4;
    }

    /** A LINE user id's shape: U and 32 hex digits. */
    private static String lineUserId(UUID eventId) {
        return "U" + eventId.toString().replace("-", "");
    }

    /** The X-Line-Retry-Key of an (event, LINE) notification, as the contract derives it. */
    static String lineRetryKey(String eventId) {
        return UUID.nameUUIDFromBytes((eventId + ":LINE").getBytes(StandardCharsets.UTF_8)).toString();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
