package dev.notifier.event;

import java.util.List;

/**
 * Email addresses built to make an envelope recipient differ from what the event says: homoglyphs,
 * mixed scripts, Latin-1 and characters beyond it, IDN domains in Unicode and in punycode, and
 * characters a mail library might drop, fold or cut to a byte. Shared by the parser's tests and the
 * end-to-end test that compares what the SMTP server saw with the event.
 *
 * @param address     as the event writes it
 * @param ascii       whether it is plain ASCII (deliverable without SMTPUTF8)
 * @param wellFormed  whether it is one valid mailbox at all (a valid non-ASCII one needs SMTPUTF8)
 */
public record HostileAddresses(String description, String address, boolean ascii, boolean wellFormed) {

    public static List<HostileAddresses> corpus() {
        return List.of(
                // what the old path turned into another mailbox: each char's low byte
                new HostileAddresses("Cyrillic o homoglyph in local part", "s\u043Emchai@example.com", false, true),
                new HostileAddresses("Cyrillic a in domain", "somchai@ex\u0430mple.com", false, true),
                new HostileAddresses("Thai local part", "\u0E2A\u0E21\u0E0A\u0E32\u0E22@example.com", false, true),
                new HostileAddresses("Thai IDN domain, Unicode form", "somchai@\u0E15\u0E31\u0E27\u0E2D\u0E22\u0E48\u0E32\u0E07.\u0E44\u0E17\u0E22", false, true),
                new HostileAddresses("Latin-1 accented local part", "ren\u00E9@example.com", false, true),
                new HostileAddresses("German sharp s", "stra\u00DFe@example.de", false, true),
                new HostileAddresses("Greek omicron beside Latin o", "\u03BFo@example.com", false, true),
                new HostileAddresses("CJK local part", "\u7528\u6237@example.cn", false, true),
                new HostileAddresses("astral-plane letter", "\uD801\uDC00@example.com", false, true),
                // low byte of U+0140 is '@': the old path wrote a second '@'
                new HostileAddresses("char whose low byte is '@'", "a\u0140evil.example@example.com", false, true),
                // low byte of U+013E is '>': the old path closed the RCPT path early
                new HostileAddresses("char whose low byte is '>'", "a\u013E@example.com", false, true),
                new HostileAddresses("decomposed e + combining acute (not NFC)", "rene\u0301@example.com", false, false),
                new HostileAddresses("fullwidth at sign", "somchai\uFF20example.com", false, false),
                new HostileAddresses("zero-width space", "som\u200Bchai@example.com", false, false),
                new HostileAddresses("right-to-left override", "\u202Emoc.elpmaxe@iahcmos", false, false),
                new HostileAddresses("no-break space", "somchai\u00A0@example.com", false, false),
                new HostileAddresses("soft hyphen", "som\u00ADchai@example.com", false, false),
                new HostileAddresses("NUL", "somchai\u0000@example.com", false, false),
                new HostileAddresses("DEL", "somchai\u007F@example.com", false, false),
                new HostileAddresses("quoted local part", "\"a@b\"@example.com", true, false),
                new HostileAddresses("address literal", "somchai@[127.0.0.1]", true, false),
                new HostileAddresses("source route", "@relay.example:somchai@example.com", true, false),
                new HostileAddresses("comment", "somchai(x)@example.com", true, false),
                new HostileAddresses("trailing dot domain", "somchai@example.com.", true, false),
                new HostileAddresses("leading space", " somchai@example.com", true, false),
                new HostileAddresses("two addresses", "a@example.com,b@example.com", true, false),
                new HostileAddresses("local part of 65 octets", "a".repeat(65) + "@example.com", true, false),
                new HostileAddresses("label of 64 octets", "a@" + "b".repeat(64) + ".com", true, false),
                // ASCII forms that are valid and must arrive exactly as written
                new HostileAddresses("IDN domain in punycode", "somchai@xn--72c1a1bt4awk9o.xn--o3cw4h", true, true),
                new HostileAddresses("plus and dots", "first.last+tag@mail.example.co.th", true, true),
                new HostileAddresses("atext symbols", "o'brien!#$%&*=?^_`{|}~-x@example.com", true, true),
                new HostileAddresses("upper case kept", "SomChai@Example.COM", true, true),
                new HostileAddresses("local part of 64 octets", "a".repeat(64) + "@example.com", true, true));
    }
}
