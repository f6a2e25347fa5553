package dev.notifier.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.delivery.NotificationKey;
import dev.notifier.delivery.email.SmtpSettings;
import dev.notifier.event.Channel;
import dev.notifier.event.EventParser;
import dev.notifier.event.TransferEvent;
import dev.notifier.ops.commands.CommandEnvironment;
import dev.notifier.support.ContractEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A typed message printed by a log line, an exception or a debugger shows no customer's data and no
 * secret: what records print by default (every component) is replaced by a masked form.
 */
class MaskedToStringTest {

    private static final String[] CUSTOMER_DATA = {ContractEvent.NAME, "สมชาย", ContractEvent.EMAIL,
            ContractEvent.PUSH_TOKEN, ContractEvent.LINE_USER_ID, "1500"};

    private final TransferEvent event;

    MaskedToStringTest() throws Exception {
        event = new EventParser(65_536).parse(ContractEvent.bytesWith(root ->
                ContractEvent.recipientOf(root).put("lineUserId", ContractEvent.LINE_USER_ID)));
    }

    @Test
    void shouldPrintTheEventAndItsRecipientMasked() {
        assertThat(event.toString()).doesNotContain(CUSTOMER_DATA)
                .contains(event.getEventIdText(), "TRX-000123", "THB", "s***@example.com", "ส*** ใ***", "devi…abc");
        assertThat(event.recipient().toString()).doesNotContain(CUSTOMER_DATA).contains("u-42", "th-TH");
    }

    @Test
    void shouldPrintAClaimWithoutTheCustomersData() {
        ClaimedNotification claim = new ClaimedNotification(new NotificationKey(event.eventId(), Channel.EMAIL), event,
                null, 2, Instant.now(), "claim-1", Instant.now());

        assertThat(claim.toString()).doesNotContain(CUSTOMER_DATA).contains(event.getEventIdText(), "attempt 2");
    }

    @Test
    void shouldPrintSettingsWithoutTheirSecrets() {
        SmtpSettings smtp = new SmtpSettings("no-reply@bank.example", SmtpSettings.Tls.STARTTLS, null, "store-secret-3",
                false, Duration.ofSeconds(10), 4, 100, Duration.ofSeconds(30), Duration.ofSeconds(5));
        CommandEnvironment command = new CommandEnvironment(System.out, System.err,
                Map.of("notifier.db.password", "db-secret-4"));

        assertThat(smtp.toString()).contains("STARTTLS").doesNotContain("store-secret-3");
        assertThat(command.toString()).contains("notifier.db.password").doesNotContain("db-secret-4");
    }
}
