package dev.notifier.delivery.template;

import dev.notifier.event.TransferEvent;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.NumberFormat;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Currency;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * What a template may say about an event, already formatted for the recipient's language (Thai when
 * {@code recipient.locale} starts with {@code th}, English otherwise):
 * {@code name} (absent when the event has none: templates write {@code ${name!"..."}}), {@code amount}
 * ({@code ฿1,500.00}, {@code THB 1,500.00}), {@code when} ({@code 2 Dec 2026 17:15 (UTC+07:00)}),
 * {@code transferId}, {@code eventId}, {@code type}, {@code currency}, and {@code to}, the channel's address.
 */
public final class MessageModel {

    static final Locale THAI = Locale.forLanguageTag("th-TH");
    /** Formatters are immutable and thread-safe; building one per message showed in the delivery profile. */
    private static final Map<Locale, DateTimeFormatter> WHEN = new ConcurrentHashMap<>();
    private static final Pattern CONTROLS = Pattern.compile("\\p{Cc}+");
    private static final ThreadLocal<Formats> FORMATS = ThreadLocal.withInitial(Formats::new);

    private final ZoneId zone;

    public MessageModel(ZoneId zone) {
        this.zone = zone;
    }

    /** The template directory's language: {@code th} or {@code en}. */
    public static String language(TransferEvent event) {
        return event.recipient().isThai() ? "th" : "en";
    }

    public Map<String, Object> of(TransferEvent event, String address) {
        Map<String, Object> model = new HashMap<>();
        String name = displayName(event.recipient().name());
        if (name != null) {
            model.put("name", name);
        }
        model.put("amount", amount(event));
        model.put("when", when(event));
        model.put("transferId", event.transferId());
        model.put("eventId", event.eventId().toString());
        model.put("type", event.type());
        model.put("currency", event.currency());
        if (address != null) {
            model.put("to", address);
        }
        return model;
    }

    /** {@code ฿1,500.00} for Thai, {@code THB 1,500.00} in English. */
    public String amount(TransferEvent event) {
        Currency currency = Currency.getInstance(event.currency());
        BigDecimal amount = event.amount().setScale(Math.max(currency.getDefaultFractionDigits(), 0), RoundingMode.HALF_EVEN);
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

    /**
     * {@code 2 Dec 2026 17:15 (UTC+07:00)}: the zone as its offset, the same on every JVM. A zone's
     * name ({@code ICT}) depends on the locale data the JVM happens to load.
     */
    String when(TransferEvent event) {
        Locale locale = event.recipient().isThai() ? THAI : Locale.ENGLISH;
        ZonedDateTime local = event.occurredAt().atZone(zone);
        String offset = local.getOffset().getTotalSeconds() == 0 ? "UTC" : "UTC" + local.getOffset().getId();
        return WHEN.computeIfAbsent(locale, l -> DateTimeFormatter.ofPattern("d MMM yyyy HH:mm", l)).format(local)
                + " (" + offset + ")";
    }

    /**
     * Names are free text from upstream: no control characters reach a message. {@code \p{Cc}}, not
     * {@code \p{Cntrl}}: the latter is ASCII-only and lets C1 controls such as NEL (U+0085) through.
     */
    static String displayName(String name) {
        if (name == null || name.isBlank()) {
            return null;
        }
        String clean = CONTROLS.matcher(name).replaceAll(" ").strip();
        return clean.isEmpty() ? null : clean;
    }

    /** One thread's formatters. */
    private static final class Formats {
        final NumberFormat thai = NumberFormat.getCurrencyInstance(THAI);
        final NumberFormat english = NumberFormat.getNumberInstance(Locale.ENGLISH);
    }
}
