package dev.notifier.inbox;

import dev.notifier.event.Channel;
import dev.notifier.event.TransferEvent;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What an event says, kept with its inbox key so that a second record with the same {@code eventId}
 * can be told apart: the same business content is a plain duplicate, different content a conflict.
 * Canonical on the parsed fields, not the bytes: a re-serialised event (other field order, spacing,
 * {@code 1500.0} for {@code 1500.00}, channels in another order) is the same event.
 *
 * <p>Each field present is one entry of {@value #ENTRY} bytes: a tag of the field's name and a hash of
 * its value keyed by the eventId (so equal values of two events never look alike). Values are never
 * stored, only enough to name the fields that differ; an absent field has no entry, so a channel
 * added to the configuration later does not make old records look different.
 */
public final class Fingerprint {

    private static final int TAG = 2;
    private static final int HASH = 8;
    static final int ENTRY = TAG + HASH;

    private Fingerprint() {
    }

    /** The fields that make the event, by the names the contract gives them. */
    static Map<String, String> fields(TransferEvent event) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("type", event.type());
        fields.put("occurredAt", event.occurredAt().toString());
        fields.put("transferId", event.transferId());
        fields.put("amount", event.amount().stripTrailingZeros().toPlainString());
        fields.put("currency", event.currency());
        fields.put("recipient.userId", event.recipient().userId());
        fields.put("recipient.name", event.recipient().name());
        fields.put("recipient.locale", event.recipient().locale());
        event.recipient().addresses().forEach((field, value) -> fields.put("recipient." + field, value));
        if (event.channels() != null) {
            Set<String> channels = new TreeSet<>();
            event.channels().stream().map(Channel::name).forEach(channels::add);
            fields.put("channels", String.join(",", channels));
        }
        fields.values().removeIf(java.util.Objects::isNull);
        return fields;
    }

    public static byte[] of(TransferEvent event) {
        Map<String, String> fields = fields(event);
        ByteBuffer out = ByteBuffer.allocate(fields.size() * ENTRY);
        String salt = event.getEventIdText();
        fields.forEach((name, value) -> out.put(digest(name), 0, TAG).put(digest(salt + '\0' + name + '\0' + value), 0, HASH));
        return out.array();
    }

    /**
     * The names of the fields in which the event differs from the one stored with this fingerprint,
     * in the contract's order; empty when it is the same event. A field that only the stored one had
     * is named too: every name an event can carry is tried against the stored tags.
     *
     * @param addressFields the recipient's address fields the configured channels read
     */
    public static List<String> differences(byte[] stored, TransferEvent event, List<String> addressFields) {
        Map<String, String> fields = fields(event);
        byte[] mine = of(event);
        List<String> differ = new ArrayList<>();
        List<String> names = possibleNames(addressFields);
        fields.keySet().stream().filter(name -> !names.contains(name)).forEach(names::add);
        for (String name : names) {
            if (!java.util.Arrays.equals(entry(stored, name), entry(mine, name))) {
                differ.add(name);
            }
        }
        return differ;
    }

    private static List<String> possibleNames(List<String> addressFields) {
        List<String> names = new ArrayList<>(List.of("type", "occurredAt", "transferId", "amount", "currency",
                "recipient.userId", "recipient.name", "recipient.locale"));
        addressFields.forEach(field -> names.add("recipient." + field));
        names.add("channels");
        return names;
    }

    /** The value hash stored for a field name, or null when the fingerprint has no such field. */
    private static byte[] entry(byte[] fingerprint, String name) {
        byte[] tag = digest(name);
        for (int at = 0; at + ENTRY <= fingerprint.length; at += ENTRY) {
            if (fingerprint[at] == tag[0] && fingerprint[at + 1] == tag[1]) {
                return java.util.Arrays.copyOfRange(fingerprint, at + TAG, at + ENTRY);
            }
        }
        return null;
    }

    private static byte[] digest(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
