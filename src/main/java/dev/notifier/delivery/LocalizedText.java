package dev.notifier.delivery;

import dev.notifier.event.TransferEvent;
import java.math.BigDecimal;
import java.text.NumberFormat;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Currency;
import java.util.Locale;

/**
 * What the customer reads, in Thai when {@code recipient.locale} starts with {@code th}, in English
 * otherwise. Both channels say the same thing; email just says more.
 */
public final class LocalizedText {

    /** Formatters are immutable and thread-safe; building one per message showed in the delivery profile. */
    private static final java.util.Map<Locale, DateTimeFormatter> WHEN = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.regex.Pattern CONTROLS = java.util.regex.Pattern.compile("\\p{Cc}+");

    private static final Locale THAI = Locale.forLanguageTag("th-TH");

    private final ZoneId zone;

    public LocalizedText(ZoneId zone) {
        this.zone = zone;
    }

    public String title(TransferEvent event) {
        return event.recipient().isThai()
                ? "โอนเงินสำเร็จ " + amount(event)
                : "Transfer completed: " + amount(event);
    }

    public String shortBody(TransferEvent event) {
        return event.recipient().isThai()
                ? "รายการโอน " + event.transferId() + " จำนวน " + amount(event) + " สำเร็จแล้ว"
                : "Your transfer " + event.transferId() + " of " + amount(event) + " is complete.";
    }

    public String emailBody(TransferEvent event) {
        String name = displayName(event);
        if (event.recipient().isThai()) {
            return "เรียน คุณ" + name + "\n\n"
                    + "การโอนเงินรายการ " + event.transferId() + " จำนวน " + amount(event)
                    + " สำเร็จแล้ว เมื่อ " + when(event, THAI) + "\n\n"
                    + "หากท่านไม่ได้ทำรายการนี้ กรุณาติดต่อธนาคารทันที\n\n"
                    + "อีเมลฉบับนี้ส่งโดยอัตโนมัติ กรุณาอย่าตอบกลับ\n";
        }
        return "Dear " + name + ",\n\n"
                + "Your transfer " + event.transferId() + " of " + amount(event)
                + " was completed on " + when(event, Locale.ENGLISH) + ".\n\n"
                + "If you did not make this transfer, contact your bank immediately.\n\n"
                + "This message was sent automatically; please do not reply.\n";
    }

    /** {@code ฿1,500.00} for Thai, {@code THB 1,500.00} in English. */
    public String amount(TransferEvent event) {
        Currency currency = Currency.getInstance(event.currency());
        BigDecimal amount = event.amount().setScale(Math.max(currency.getDefaultFractionDigits(), 0),
                java.math.RoundingMode.HALF_EVEN);
        // a NumberFormat is not thread-safe, and making one is most of what formatting costs
        Formats formats = FORMATS.get();
        if (event.recipient().isThai()) {
            NumberFormat format = formats.thai;
            format.setCurrency(currency);
            format.setMinimumFractionDigits(amount.scale());
            format.setMaximumFractionDigits(amount.scale());
            return format.format(amount);
        }
        NumberFormat format = formats.english;
        format.setMinimumFractionDigits(amount.scale());
        format.setMaximumFractionDigits(amount.scale());
        return currency.getCurrencyCode() + " " + format.format(amount);
    }

    /** One thread's formatters. */
    private static final class Formats {
        final NumberFormat thai = NumberFormat.getCurrencyInstance(THAI);
        final NumberFormat english = NumberFormat.getNumberInstance(Locale.ENGLISH);
    }

    private static final ThreadLocal<Formats> FORMATS = ThreadLocal.withInitial(Formats::new);

    /**
     * {@code 2 Dec 2026 17:15 (UTC+07:00)}: the zone as its offset, the same on every JVM. A zone's
     * name ({@code ICT}) depends on the locale data the JVM happens to load, and looking it up was
     * most of what formatting a date cost.
     */
    private String when(TransferEvent event, Locale locale) {
        java.time.ZonedDateTime local = event.occurredAt().atZone(zone);
        String offset = local.getOffset().getTotalSeconds() == 0 ? "UTC" : "UTC" + local.getOffset().getId();
        return WHEN.computeIfAbsent(locale, l -> DateTimeFormatter.ofPattern("d MMM yyyy HH:mm", l)).format(local)
                + " (" + offset + ")";
    }

    /**
     * Names are free text from upstream: no control characters reach a message. {@code \p{Cc}}, not
     * {@code \p{Cntrl}}: the latter is ASCII-only and lets C1 controls such as NEL (U+0085) through.
     */
    private static String displayName(TransferEvent event) {
        String name = event.recipient().name();
        if (name == null || name.isBlank()) {
            return event.recipient().isThai() ? "ลูกค้า" : "customer";
        }
        return CONTROLS.matcher(name).replaceAll(" ").strip();
    }
}
