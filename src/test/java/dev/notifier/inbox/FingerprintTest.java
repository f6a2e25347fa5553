package dev.notifier.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.event.Channel;
import dev.notifier.event.Recipient;
import dev.notifier.event.TransferEvent;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class FingerprintTest {

    private static final List<String> ADDRESS_FIELDS = List.of("email", "pushToken", "lineUserId");
    private static final UUID ID = UUID.randomUUID();

    @Test
    void shouldTakeTheSameBusinessContentAsTheSameEvent() {
        TransferEvent a = event("1500.00", "a@example.com", null, List.of(Channel.of("EMAIL"), Channel.of("PUSH")));
        TransferEvent b = event("1500.0", "a@example.com", null, List.of(Channel.of("PUSH"), Channel.of("EMAIL")));

        assertThat(Fingerprint.of(b)).isEqualTo(Fingerprint.of(a));
        assertThat(Fingerprint.differences(Fingerprint.of(a), b, ADDRESS_FIELDS)).isEmpty();
    }

    @Test
    void shouldNameEveryFieldThatDiffersIncludingOneThatWentMissing() {
        TransferEvent first = event("1500.00", "a@example.com", "device-1", null);
        TransferEvent second = event("1501.00", "b@example.com", null, List.of(Channel.of("EMAIL")));

        assertThat(Fingerprint.differences(Fingerprint.of(first), second, ADDRESS_FIELDS))
                .containsExactly("amount", "recipient.email", "recipient.pushToken", "channels");
    }

    @Test
    void shouldKeepNoValueAndDifferBetweenEventsWithEqualContent() {
        TransferEvent event = event("1500.00", "a@example.com", null, null);
        TransferEvent other = new TransferEvent(UUID.randomUUID(), event.type(), event.occurredAt(), event.transferId(),
                event.amount(), event.currency(), event.recipient(), null);

        assertThat(new String(Fingerprint.of(event), java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain("a@example.com", "1500");
        assertThat(Fingerprint.of(other)).isNotEqualTo(Fingerprint.of(event));
        assertThat(Fingerprint.of(event)).hasSize(Fingerprint.fields(event).size() * Fingerprint.ENTRY);
    }

    private static TransferEvent event(String amount, String email, String pushToken, List<Channel> channels) {
        return new TransferEvent(ID, "TransferCompleted", Instant.parse("2026-12-02T10:15:30Z"), "TRX-1",
                new BigDecimal(amount), "THB", Recipient.of("u-1", "Somchai", "th-TH", email, pushToken, null), channels);
    }
}
