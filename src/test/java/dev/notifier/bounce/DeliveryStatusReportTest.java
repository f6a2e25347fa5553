package dev.notifier.bounce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.support.Dsn;
import dev.notifier.support.Dsn.Relay;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DeliveryStatusReportTest {

    private static final UUID EVENT = UUID.fromString("0b9f3c1e-7a51-4c1e-9a43-2f1f5c9d8e01");

    @ParameterizedTest
    @EnumSource(Relay.class)
    void shouldReadTheCommonRelaysReportsAndTheEmailTheyName(Relay relay) {
        DeliveryStatusReport report = DeliveryStatusReport.read(Dsn.message(Dsn.text(relay, "<dsn-1@relay.bank.test>", EVENT,
                "nobody@example.com", "failed", "5.1.1", "550 5.1.1 <nobody@example.com>: Recipient address rejected"))).orElseThrow();

        assertThat(report.reportId()).isEqualTo("<dsn-1@relay.bank.test>");
        assertThat(BounceLedger.eventOf(report)).isEqualTo(EVENT);
        assertThat(report.recipients()).singleElement().satisfies(r -> {
            assertThat(r.action()).isEqualTo("failed");
            assertThat(r.status()).isEqualTo("5.1.1");
            assertThat(r.recipient()).isEqualTo("nobody@example.com");
            assertThat(r.diagnostic()).startsWith("550 5.1.1 <nobody@example.com>: Recipient address rejected")
                    .doesNotContain("\r", "\n");
            assertThat(r.failed()).isTrue();
            assertThat(r.permanent()).isTrue();
        });
    }

    @Test
    void shouldTellADelayFromAGivingUpThatIsNotAboutTheAddress() {
        var delayed = DeliveryStatusReport.read(Dsn.message(Dsn.text(Relay.POSTFIX, "<d@r>", EVENT, "a@example.com",
                "delayed", "4.4.1", "connect to mx.example.com: Connection timed out"))).orElseThrow().recipients().get(0);
        var expired = DeliveryStatusReport.read(Dsn.message(Dsn.text(Relay.POSTFIX, "<e@r>", EVENT, "a@example.com",
                "failed", "4.4.7", "delivery time expired"))).orElseThrow().recipients().get(0);

        assertThat(delayed.delayed()).isTrue();
        assertThat(delayed.failed()).isFalse();
        assertThat(expired.failed()).isTrue();
        assertThat(expired.permanent()).as("a 4.x.x give-up does not suppress the address").isFalse();
    }

    @Test
    void shouldKeepOnlyARealStatusCodeSoAHostileOneFitsItsColumn() {
        assertThat(DeliveryStatusReport.statusCode("5.1.1 (bad destination mailbox address)")).isEqualTo("5.1.1");
        assertThat(DeliveryStatusReport.statusCode("4.4.7")).isEqualTo("4.4.7");
        assertThat(DeliveryStatusReport.statusCode("5." + "1".repeat(200) + ".1")).isEmpty();
        assertThat(DeliveryStatusReport.statusCode("smtp; 550")).isEmpty();
        assertThat(DeliveryStatusReport.statusCode(null)).isEmpty();
    }

    @Test
    void shouldNotTakeAnOrdinaryMailOrAnotherReportTypeForADsn() {
        assertThat(DeliveryStatusReport.read(Dsn.message("From: a@b\r\nSubject: Out of office\r\n\r\nI am away.\r\n"))).isEmpty();
        String mdn = Dsn.text(Relay.POSTFIX, "<m@r>", EVENT, "a@example.com", "failed", "5.1.1", "x")
                .replace("report-type=delivery-status", "report-type=disposition-notification");
        assertThat(DeliveryStatusReport.read(Dsn.message(mdn))).isEmpty();
    }

    @Test
    void shouldNotNameAnEventForAMessageIdThatIsNotNotifiers() {
        String foreign = Dsn.text(Relay.POSTFIX, "<x@r>", EVENT, "a@example.com", "failed", "5.1.1", "x")
                .replace("<" + EVENT + ".email@notifier>", "<" + EVENT + ".email@elsewhere>")
                .replace("X-Notification-Key: " + EVENT + ":EMAIL", "X-Notification-Key: " + EVENT + ":PUSH");
        assertThat(BounceLedger.eventOf(DeliveryStatusReport.read(Dsn.message(foreign)).orElseThrow())).isNull();
    }

    @Test
    void shouldReadMalformedMimeAsNoReportAndBoundEveryField() {
        String cut = Dsn.text(Relay.POSTFIX, "<c@r>", EVENT, "a@example.com", "failed", "5.1.1", "x");
        assertThat(DeliveryStatusReport.read(Dsn.message(cut.substring(0, cut.indexOf("message/delivery-status")))))
                .as("a report cut off before its status part").isEmpty();
        assertThat(DeliveryStatusReport.read(Dsn.message(cut.replace("Content-Type: message/delivery-status", "Content-Type: ;;"))))
                .as("a report whose status part has a broken type").isEmpty();
        assertThat(DeliveryStatusReport.read(Dsn.message(cut.replace("Action: failed", "Actio n failed"))))
                .as("a status part with no Action").isEmpty();

        String huge = Dsn.text(Relay.POSTFIX, "<h@r>", EVENT, "a@example.com", "failed", "5.1.1", "y".repeat(200_000));
        var report = DeliveryStatusReport.read(Dsn.message(huge));
        report.ifPresent(r -> assertThat(r.recipients()).allSatisfy(s ->
                assertThat(s.diagnostic().length()).isLessThanOrEqualTo(DeliveryStatusReport.TEXT_LIMIT)));
    }
}
