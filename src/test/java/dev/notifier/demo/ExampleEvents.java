package dev.notifier.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an events file must come to, worked out from the file alone with the contract's rules: a line
 * that is not a JSON object is dead-lettered; an eventId seen before is a duplicate when the object is
 * the same and a conflict (dead-lettered, the first stands) when it is not; an event goes to
 * its explicit channels, else to EMAIL when it has an email, to PUSH when it has a push token and to
 * LINE when it has a LINE user id.
 * (The demo database holds no opt-outs.)
 */
record ExampleEvents(int records, int unparseable, int conflicts, int validRecords, List<JsonNode> distinctEvents) {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    static ExampleEvents read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file).stream().filter(line -> !line.isBlank()).toList();
        int unparseable = 0;
        int conflicts = 0;
        Map<String, JsonNode> byEventId = new LinkedHashMap<>();
        for (String line : lines) {
            JsonNode event = objectOrNull(line);
            if (event == null) {
                unparseable++;
            } else {
                JsonNode first = byEventId.putIfAbsent(event.path("eventId").asText(), event);
                if (first != null && !first.equals(event)) {
                    conflicts++;
                }
            }
        }
        return new ExampleEvents(lines.size(), unparseable, conflicts, lines.size() - unparseable,
                List.copyOf(byEventId.values()));
    }

    /** Records of an event seen before with the same content: dropped silently. */
    int duplicates() {
        return validRecords - distinctEvents.size() - conflicts;
    }

    /** Records that end in the DLQ: not JSON objects, and conflicts. */
    int deadLettered() {
        return unparseable + conflicts;
    }

    long notifications(String channel) {
        return distinctEvents.stream().filter(event -> channels(event).contains(channel)).count();
    }

    /** Pushes to a token the demo's gateway does not know: rejected for good. */
    long unregisteredPushes() {
        return distinctEvents.stream()
                .filter(event -> channels(event).contains("PUSH"))
                .filter(event -> event.path("recipient").path("pushToken").asText()
                        .startsWith(EmbeddedPushGateway.UNREGISTERED_TOKEN_PREFIX))
                .count();
    }

    /** Emails to an address whose mailbox the demo's SMTP server says does not exist: bounced. */
    long missingMailboxes() {
        return distinctEvents.stream()
                .filter(event -> channels(event).contains("EMAIL"))
                .filter(event -> event.path("recipient").path("email").asText().startsWith(EmbeddedSmtpServer.NO_MAILBOX_PREFIX))
                .count();
    }

    /** LINE messages to a user the demo's LINE API says blocked the bot: rejected for good. */
    long blockedLineUsers() {
        return distinctEvents.stream()
                .filter(event -> channels(event).contains("LINE"))
                .filter(event -> event.path("recipient").path("lineUserId").asText()
                        .startsWith(EmbeddedLineApi.BLOCKED_USER_PREFIX))
                .count();
    }

    private static List<String> channels(JsonNode event) {
        List<String> channels = new ArrayList<>();
        if (event.has("channels")) {
            event.get("channels").forEach(channel -> channels.add(channel.asText()));
            return channels;
        }
        if (event.path("recipient").has("email")) {
            channels.add("EMAIL");
        }
        if (event.path("recipient").has("pushToken")) {
            channels.add("PUSH");
        }
        if (event.path("recipient").has("lineUserId")) {
            channels.add("LINE");
        }
        return channels;
    }

    private static JsonNode objectOrNull(String line) {
        try {
            JsonNode node = MAPPER.readTree(line);
            return node != null && node.isObject() ? node : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
