package dev.notifier.delivery.template;

import dev.notifier.event.Recipient;
import dev.notifier.event.TransferEvent;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Events every template is tried with at start: each language, with and without a name, and a name
 * full of what escaping is for (quotes, a backslash, markup, a line break).
 */
public final class SampleEvents {

    private SampleEvents() {
    }

    public static List<TransferEvent> all() {
        return List.of(
                event(Recipient.of("u-sample", "สมชาย ใจดี", "th-TH", "somchai@example.com", "sample-token", "Usample")),
                event(Recipient.of("u-sample", null, "th", "somchai@example.com", null, null)),
                event(Recipient.of("u-sample", "Ann \"<b>\" \\ O'Neil\nx", "en", "ann@example.com", "sample-token", "Usample")),
                event(Recipient.of("u-sample", null, null, "ann@example.com", null, null)));
    }

    private static TransferEvent event(Recipient recipient) {
        return new TransferEvent(UUID.fromString("00000000-0000-4000-8000-000000000000"), "TransferCompleted",
                Instant.parse("2026-12-02T10:15:30Z"), "TRX-SAMPLE", new BigDecimal("1500.00"), "THB", recipient, null);
    }
}
