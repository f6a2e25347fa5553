package dev.notifier.event;

import static dev.notifier.support.ContractEvent.bytesWith;
import static dev.notifier.support.ContractEvent.recipientOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.notifier.support.ContractEvent;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class EventParserTest {

    private static final int MAX_BYTES = 65_536;

    private final EventParser parser = new EventParser(MAX_BYTES);

    @Nested
    class ValidEvent {

        @Test
        void shouldParseEveryFieldOfTheContractExample() throws Exception {
            TransferEvent event = parser.parse(ContractEvent.bytes());

            assertThat(event).isEqualTo(ContractEvent.event().build());
            assertThat(event.recipient().name()).isEqualTo("สมชาย ใจดี");
            assertThat(event.amount()).hasToString("1500.00");
        }

        @Test
        void shouldIgnoreUnknownFields() throws Exception {
            byte[] value = bytesWith(root -> {
                root.put("priority", "high");
                root.putObject("meta").put("source", "core-banking").putArray("tags").add(1);
                recipientOf(root).put("nickname", "ชาย");
            });

            assertThat(parser.parse(value)).isEqualTo(ContractEvent.event().build());
        }

        @ParameterizedTest(name = "channels {0}")
        @ValueSource(strings = {"absent", "null"})
        void shouldLeaveChannelsNullWhenNotGiven(String form) throws Exception {
            byte[] value = bytesWith(root -> {
                if (form.equals("null")) {
                    root.putNull("channels");
                } else {
                    root.remove("channels");
                }
            });

            assertThat(parser.parse(value).channels()).isNull();
        }

        @Test
        void shouldCollapseDuplicateChannelsKeepingFirstOccurrenceOrder() throws Exception {
            byte[] value = bytesWith(root -> root.putArray("channels").add("PUSH").add("EMAIL").add("PUSH").add("EMAIL"));

            assertThat(parser.parse(value).channels()).containsExactly(Channel.PUSH, Channel.EMAIL);
        }

        @Test
        void shouldAcceptValueOfExactlyMaxBytes() throws Exception {
            byte[] value = ContractEvent.bytes();

            assertThat(new EventParser(value.length).parse(value)).isEqualTo(ContractEvent.event().build());
        }

        @Test
        void shouldAcceptRecipientWithOnlyUserIdWhenChannelsAreNotGiven() throws Exception {
            byte[] value = bytesWith(root -> {
                root.remove("channels");
                recipientOf(root).retain("userId");
            });

            assertThat(parser.parse(value).recipient()).isEqualTo(Recipient.of("u-42", null, null, null, null, null));
        }
    }

    @Nested
    class StoredForm {

        @Test
        void shouldRoundTripTheContractExample() throws Exception {
            TransferEvent event = parser.parse(ContractEvent.bytes());

            assertThat(parser.fromStored(parser.toJson(event))).isEqualTo(event);
        }

        @Test
        void shouldRoundTripAnEventWithoutChannelsOrOptionalRecipientFields() throws Exception {
            TransferEvent event = ContractEvent.event().noChannels().name(null).locale(null).pushToken(null).build();

            TransferEvent stored = parser.fromStored(parser.toJson(event));

            assertThat(stored).isEqualTo(event);
            assertThat(stored.channels()).isNull();
        }

        /** PostgreSQL stores up to 255 code points; an incoming record is held to 255 UTF-16 units. */
        @Test
        void shouldReadBackStoredIdsLongerInUtf16UnitsThanAnIncomingRecordMayHave() throws Exception {
            String astral = Character.toString(0x1F600).repeat(ColumnLimits.USER_ID);
            TransferEvent event = new TransferEvent(ContractEvent.EVENT_ID, "TransferCompleted",
                    java.time.Instant.parse("2026-12-02T10:15:30Z"), astral, new java.math.BigDecimal("1.00"), "THB",
                    Recipient.of(astral, null, null, ContractEvent.EMAIL, null, null), null);

            assertThat(parser.fromStored(parser.toJson(event))).isEqualTo(event);
        }

        @Test
        void shouldStoreOnlyTheFieldsItUnderstood() throws Exception {
            TransferEvent event = parser.parse(bytesWith(root -> root.put("priority", "high")));

            assertThat(parser.toJson(event)).doesNotContain("priority").contains("\"eventId\"");
        }
    }

    @Nested
    class InvalidEvent {

        @ParameterizedTest(name = "{0}")
        @MethodSource("dev.notifier.event.EventParserTest#invalidValues")
        void shouldRejectWithOneLineReasonNamingTheProblem(String description, byte[] value, String expectedInReason) {
            assertThat(rejectionOf(value)).contains(expectedInReason);
        }

        /** CR, LF, VT, FF, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR: each ends a line somewhere. */
        @ParameterizedTest(name = "unknown channel carrying U+{0}")
        @ValueSource(strings = {"000A", "000D", "000B", "000C", "0085", "2028", "2029"})
        void shouldNeverBreakTheReasonAcrossLines(String codePoint) {
            String lineBreak = Character.toString(Integer.parseInt(codePoint, 16));
            byte[] value = bytesWith(root -> root.putArray("channels").add("SMS" + lineBreak + "Bcc: x@y.com"));

            assertThat(rejectionOf(value)).contains("SMS").doesNotContain(lineBreak);
        }

        @Test
        void shouldRejectValueLargerThanMaxBytes() {
            byte[] value = ContractEvent.bytes();

            assertThat(rejectionOf(new EventParser(value.length - 1), value))
                    .contains(value.length + " bytes").contains("more than the " + (value.length - 1) + " allowed");
        }
    }

    /** What the business allows, beyond the JSON's shape: each rule a DLQ reason of its own. */
    @Nested
    class BusinessRules {

        private final java.time.Clock clock = java.time.Clock.fixed(java.time.Instant.parse("2026-12-03T00:00:00Z"),
                java.time.ZoneOffset.UTC);
        private final EventParser strict = new EventParser(new EventRules(MAX_BYTES, false, java.time.Duration.ofDays(30),
                java.time.Duration.ofMinutes(10), clock, ChannelCatalog.standard()));

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"TransferFailed", "transfercompleted", "TransferCompleted ", "Transfer\u200BCompleted"})
        void shouldRefuseEveryTypeButTransferCompleted(String type) {
            assertThat(rejectionOf(bytesWith(root -> root.put("type", type)))).startsWith("type: ");
        }

        @ParameterizedTest(name = "{0} {1}")
        @org.junit.jupiter.params.provider.CsvSource({"THB, 1500.001", "THB, 0.005", "JPY, 100.5", "KWD, 1.0001", "USD, 0.001"})
        void shouldRefuseAnAmountFinerThanItsCurrencysMinorUnit(String currency, String amount) {
            String reason = rejectionOf(bytesWith(root -> root.put("currency", currency).put("amount", amount)));

            assertThat(reason).startsWith("amount: " + amount + " is finer than the minor unit of " + currency);
        }

        @ParameterizedTest(name = "{0} {1}")
        @org.junit.jupiter.params.provider.CsvSource({"THB, 1500.10", "JPY, 100", "JPY, 100.00", "KWD, 1.001", "USD, 0.01"})
        void shouldAcceptAnAmountNoFinerThanItsCurrencysMinorUnit(String currency, String amount) throws Exception {
            TransferEvent event = parser.parse(bytesWith(root -> root.put("currency", currency).put("amount", amount)));

            assertThat(event.amount()).isEqualByComparingTo(amount);
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"XTS", "XXX", "XAU", "XDR"})
        void shouldRefuseCurrencyCodesThatAreNoCurrencyOfPayments(String code) {
            assertThat(rejectionOf(bytesWith(root -> root.put("currency", code))))
                    .isEqualTo("currency: " + code + " is not a currency of payments (a test, no-currency, metal or fund code)");
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"2026-12-03T00:10:01Z", "9999-12-31T23:59:59Z", "2026-11-02T23:59:59Z", "1970-01-01T00:00:00Z"})
        void shouldRefuseAnOccurredAtOutsideTheWindow(String occurredAt) {
            assertThat(rejectionOf(strict, bytesWith(root -> root.put("occurredAt", occurredAt))))
                    .startsWith("occurredAt: ").contains("(notifier.event.max-");
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"2026-12-03T00:10:00Z", "2026-11-03T00:00:00Z", "2026-12-02T10:15:30Z"})
        void shouldAcceptAnOccurredAtInsideTheWindow(String occurredAt) throws Exception {
            assertThat(strict.parse(bytesWith(root -> root.put("occurredAt", occurredAt))).occurredAt())
                    .isEqualTo(java.time.Instant.parse(occurredAt));
        }

        /** A stored payload is read back whatever time it is now: its row is the proof it was valid. */
        @Test
        void shouldReadBackAStoredEventOutsideTheWindow() throws Exception {
            TransferEvent old = parser.parse(bytesWith(root -> root.put("occurredAt", "2026-10-01T00:00:00Z")));

            assertThat(strict.fromStored(strict.toJson(old))).isEqualTo(old);
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("dev.notifier.event.EventParserTest#invisibleCharacters")
        void shouldRefuseIdentifiersWithInvisibleCharacters(String description, String invisible) {
            assertThat(rejectionOf(bytesWith(root -> root.put("transferId", "TRX-" + invisible + "000123"))))
                    .isEqualTo("transferId: contains white space or invisible (format) characters");
            assertThat(rejectionOf(bytesWith(root -> recipientOf(root).put("userId", "u-" + invisible + "42"))))
                    .isEqualTo("recipient.userId: contains white space or invisible (format) characters");
            assertThat(rejectionOf(bytesWith(root -> recipientOf(root).put("pushToken", "device" + invisible + "-token"))))
                    .isEqualTo("recipient.pushToken: contains white space or invisible (format) characters");
        }

        /** A JSON escape can carry half a surrogate pair, which no UTF-8 byte sequence can. */
        @Test
        void shouldRefuseAnIdentifierHoldingALoneSurrogate() {
            String json = new String(ContractEvent.bytes(), StandardCharsets.UTF_8).replace("TRX-000123", "TRX-\\uD800");

            assertThat(rejectionOf(json.getBytes(StandardCharsets.UTF_8)))
                    .isEqualTo("transferId: contains white space or invisible (format) characters");
        }

        @Test
        void shouldKeepNamesAsFreeText() throws Exception {
            TransferEvent event = parser.parse(bytesWith(root -> recipientOf(root).put("name", "<b>O'Brien</b> & \"สมชาย\"")));

            assertThat(event.recipient().name()).isEqualTo("<b>O'Brien</b> & \"สมชาย\"");
        }

        @Test
        void shouldRefuseMoreChannelItemsThanAllowed() {
            byte[] value = bytesWith(root -> {
                var channels = root.putArray("channels");
                for (int i = 0; i <= EventParser.MAX_CHANNELS; i++) {
                    channels.add("EMAIL");
                }
            });

            assertThat(rejectionOf(value)).isEqualTo("channels: 17 items, more than the 16 allowed");
        }

        @Test
        void shouldRefuseALongChannelNameWithoutQuotingAllOfIt() {
            String reason = rejectionOf(bytesWith(root -> root.putArray("channels").add("E".repeat(50_000))));

            assertThat(reason).startsWith("channels: ").endsWith("is not a channel name").hasSizeLessThan(120);
        }

        @Test
        void shouldRefuseJsonNestedDeeperThanAllowed() {
            String deep = "[".repeat(1000) + "]".repeat(1000);

            assertThat(rejectionOf(bytesWith(root -> root.putRawValue("meta",
                    new com.fasterxml.jackson.databind.util.RawValue(deep))))).startsWith("not JSON");
        }
    }

    /**
     * A field stored in a column of its own is held to that column's width, or the record would
     * pass parsing and then fail its insert on every redelivery instead of going to the DLQ.
     */
    @Nested
    class FieldStoredInALimitedColumn {

        /** A deployment whose transferIds may be as long as their column (the default pattern stops at 64). */
        private final EventParser wide = new EventParser(EventRules.defaults(MAX_BYTES)
                .withTransferIds(TransferIds.matching("[A-Za-z0-9._:/-]{1,255}")));

        @ParameterizedTest(name = "{0}")
        @MethodSource("dev.notifier.event.EventParserTest#columnLimitedFields")
        void shouldAcceptAValueExactlyAsLongAsItsColumn(String path, int limit, Setter setter) throws Exception {
            String value = "x".repeat(limit);

            TransferEvent event = wide.parse(bytesWith(root -> setter.set(root, value)));

            assertThat(path.equals("transferId") ? event.transferId() : event.recipient().userId()).isEqualTo(value);
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("dev.notifier.event.EventParserTest#columnLimitedFields")
        void shouldRejectAValueOneLongerThanItsColumnNamingFieldAndLimit(String path, int limit, Setter setter) {
            String reason = rejectionOf(wide, bytesWith(root -> setter.set(root, "x".repeat(limit + 1))));

            assertThat(reason).isEqualTo(path + ": longer than " + limit + " characters");
        }

        /** The limit counts UTF-16 units; PostgreSQL counts code points, never more. */
        @ParameterizedTest(name = "{0}")
        @MethodSource("dev.notifier.event.EventParserTest#columnLimitedFields")
        void shouldCountCharactersOutsideTheBasicPlaneAsTwo(String path, int limit, Setter setter) {
            String grinning = Character.toString(0x1F600);
            String value = grinning.repeat(limit / 2) + "xx";

            assertThat(rejectionOf(wide, bytesWith(root -> setter.set(root, value)))).startsWith(path + ": longer than");
        }
    }

    /**
     * What only a bank would send: a transferId of the configured shape and never a link, since it is printed
     * in messages carrying the bank's name; a name without the characters that reorder or hide text.
     */
    @Nested
    class ContentOnlyABankSends {

        private static final String URL_REASON = "transferId: looks like a URL (a scheme such as 'https:' or '//'),"
                + " which a transfer id never is";

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"https://evil.example/x", "http://evil.example", "HTTPS://EVIL.EXAMPLE", "//evil.example/x",
                "TRX-1//evil.example", "javascript:alert", "tel:0812345678", "mailto:spy", "TRX-000123:2", "TRX_tel:0812345678",
                "2026/sms:0812345678", "2026:tel:1", "a+b:x"})
        void shouldDeadLetterATransferIdThatIsAUrl(String transferId) {
            assertThat(rejectionOf(bytesWith(root -> root.put("transferId", transferId)))).isEqualTo(URL_REASON);
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"TRX#000123", "TRX,1", "TRX+1", "TRX?a=1", "ธุรกรรม-1", "TRX@bank", "TRX%2F"})
        void shouldDeadLetterATransferIdOutsideThePatternNamingTheProperty(String transferId) {
            assertThat(rejectionOf(bytesWith(root -> root.put("transferId", transferId))))
                    .isEqualTo("transferId: does not match notifier.event.transfer-id-pattern");
        }

        @Test
        void shouldDeadLetterATransferIdLongerThanThePatternAllows() {
            assertThat(rejectionOf(bytesWith(root -> root.put("transferId", "T".repeat(65)))))
                    .isEqualTo("transferId: does not match notifier.event.transfer-id-pattern");
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"TRX-000123", "2026:000123", "TRX/2026:1", "core_bank.2026-12-02", "123:456:789", "a",
                "TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT", "evil.example/x"})
        void shouldAcceptATransferIdOfTheDefaultShape(String transferId) throws Exception {
            assertThat(parser.parse(bytesWith(root -> root.put("transferId", transferId))).transferId()).isEqualTo(transferId);
        }

        @Test
        void shouldHoldTransferIdsToTheConfiguredPatternAndNeverAcceptAUrl() throws Exception {
            EventParser exact = new EventParser(EventRules.defaults(MAX_BYTES).withTransferIds(TransferIds.matching("TRX-[0-9]{6}")));
            EventParser anything = new EventParser(EventRules.defaults(MAX_BYTES).withTransferIds(TransferIds.matching(".*")));

            assertThat(exact.parse(ContractEvent.bytes()).transferId()).isEqualTo("TRX-000123");
            assertThat(rejectionOf(exact, bytesWith(root -> root.put("transferId", "TRX-1"))))
                    .isEqualTo("transferId: does not match notifier.event.transfer-id-pattern");
            assertThat(anything.parse(bytesWith(root -> root.put("transferId", "TRX+1#x"))).transferId()).isEqualTo("TRX+1#x");
            assertThat(rejectionOf(anything, bytesWith(root -> root.put("transferId", "https://evil.example/x"))))
                    .isEqualTo(URL_REASON);
        }

        @Test
        void shouldRefuseAPatternThatIsNoRegularExpressionNamingTheProperty() {
            assertThat(catchThrowable(() -> TransferIds.matching("[A-Z")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("notifier.event.transfer-id-pattern is not a regular expression");
        }

        /** A stored payload passed the rule of its day: the row is the proof, as for the time window. */
        @Test
        void shouldReadBackAStoredTransferIdWhateverThePatternSaysNow() throws Exception {
            TransferEvent old = ContractEvent.event().build();
            EventParser exact = new EventParser(EventRules.defaults(MAX_BYTES).withTransferIds(TransferIds.matching("X")));

            assertThat(exact.fromStored(parser.toJson(old))).isEqualTo(old);
        }

        @ParameterizedTest(name = "U+{0}")
        @ValueSource(strings = {"202A", "202B", "202C", "202D", "202E", "2066", "2067", "2068", "2069", "200E", "200F",
                "061C", "200B", "200C", "200D", "2060", "FEFF", "00AD", "E0041"})
        void shouldStripFormatCharactersFromTheName(String codePoint) throws Exception {
            String format = Character.toString(Integer.parseInt(codePoint, 16));

            TransferEvent event = parser.parse(bytesWith(root -> recipientOf(root)
                    .put("name", format + "สมชาย" + format + " ใจดี" + format + format)));

            assertThat(event.recipient().name()).isEqualTo("สมชาย ใจดี");
        }

        @Test
        void shouldShowTheNameAsWrittenNotAsABidiOverrideWouldReorderIt() throws Exception {
            // rendered, U+202E shows "Somchai (moc.live)"; without it the text reads as it is stored
            TransferEvent event = parser.parse(bytesWith(root -> recipientOf(root).put("name", "Somchai (‮live.com‬)")));

            assertThat(event.recipient().name()).isEqualTo("Somchai (live.com)");
        }

        @Test
        void shouldTreatANameOfFormatCharactersOnlyAsAbsent() throws Exception {
            TransferEvent event = parser.parse(bytesWith(root -> recipientOf(root).put("name", "‮​ ⁦⁩")));

            assertThat(event.recipient().name()).isNull();
        }

        /** A row recorded before the rule is shown by it too: stored names are read through the same strip. */
        @Test
        void shouldStripFormatCharactersFromAStoredName() throws Exception {
            TransferEvent old = ContractEvent.event().name("Eve‮gnp.exe").build();

            assertThat(parser.fromStored(parser.toJson(old)).recipient().name()).isEqualTo("Evegnp.exe");
        }
    }

    @FunctionalInterface
    interface Setter {
        void set(ObjectNode root, String value);
    }

    static Stream<Arguments> columnLimitedFields() {
        return Stream.of(
                arguments("transferId", ColumnLimits.TRANSFER_ID, (Setter) (root, value) -> root.put("transferId", value)),
                arguments("recipient.userId", ColumnLimits.USER_ID,
                        (Setter) (root, value) -> recipientOf(root).put("userId", value)));
    }

    static Stream<Arguments> invisibleCharacters() {
        return Stream.of(
                arguments("space", " "),
                arguments("no-break space", "\u00A0"),
                arguments("zero-width space", "\u200B"),
                arguments("zero-width joiner", "\u200D"),
                arguments("right-to-left override", "\u202E"),
                arguments("byte order mark", "\uFEFF"),
                arguments("ideographic space", "\u3000"),
                arguments("private use", "\uE000"));
    }

    static Stream<Arguments> invalidValues() {
        String contract = new String(ContractEvent.bytes(), StandardCharsets.UTF_8);
        return Stream.of(
                raw("not JSON", "hello", "not JSON"),
                arguments("null value", null, "empty"),
                arguments("empty value", new byte[0], "empty"),
                raw("whitespace only", "  \n ", "no JSON"),
                raw("JSON array", "[" + contract + "]", "JSON array"),
                raw("JSON string", "\"TransferCompleted\"", "JSON string"),
                raw("JSON number", "42", "JSON number"),
                raw("JSON null", "null", "JSON null"),
                arguments("invalid UTF-8 bytes", new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'}, "UTF-8"),
                arguments("Thai in TIS-620, not UTF-8", contract.getBytes(Charset.forName("TIS-620")), "UTF-8"),
                arguments("oversized value", bytesWith(root -> root.put("padding", "x".repeat(MAX_BYTES))),
                        "more than the " + MAX_BYTES + " allowed"),
                raw("duplicate JSON key", contract.replaceFirst("\\{",
                        "{\"eventId\": \"11111111-2222-3333-4444-555555555555\","), "Duplicate field 'eventId'"),
                raw("trailing garbage", contract + " xyz", "not JSON"),
                raw("trailing second object", contract + "{}", "not JSON"),
                invalid("missing eventId", root -> root.remove("eventId"), "eventId: missing"),
                invalid("eventId not a UUID", root -> root.put("eventId", "evt-1"), "eventId"),
                invalid("eventId short form", root -> root.put("eventId", "1-2-3-4-5"), "eventId"),
                invalid("eventId without dashes", root -> root.put("eventId", "0b9f3c1e7a514c1e9a432f1f5c9d8e01"), "eventId"),
                invalid("eventId as number", root -> root.put("eventId", 42), "eventId"),
                invalid("missing type", root -> root.remove("type"), "type: missing"),
                invalid("blank type", root -> root.put("type", "  "), "type: missing"),
                invalid("missing occurredAt", root -> root.remove("occurredAt"), "occurredAt"),
                invalid("occurredAt date only", root -> root.put("occurredAt", "2026-12-02"), "occurredAt"),
                invalid("occurredAt without zone", root -> root.put("occurredAt", "2026-12-02T10:15:30"), "occurredAt"),
                invalid("missing transferId", root -> root.remove("transferId"), "transferId: missing"),
                invalid("amount as number", root -> root.put("amount", 1500.00), "amount"),
                invalid("missing amount", root -> root.remove("amount"), "amount: missing"),
                invalid("negative amount", root -> root.put("amount", "-1500.00"), "amount"),
                invalid("zero amount", root -> root.put("amount", "0.00"), "amount"),
                invalid("amount with thousands separator", root -> root.put("amount", "1,500.00"), "amount"),
                invalid("amount not a number", root -> root.put("amount", "abc"), "amount"),
                invalid("amount in exponent form", root -> root.put("amount", "1.5E3"), "amount"),
                invalid("lower-case currency", root -> root.put("currency", "thb"), "currency"),
                invalid("unknown currency", root -> root.put("currency", "XXY"), "currency"),
                invalid("missing currency", root -> root.remove("currency"), "currency: missing"),
                invalid("missing recipient", root -> root.remove("recipient"), "recipient"),
                invalid("recipient not an object", root -> root.put("recipient", "u-42"), "recipient"),
                invalid("missing recipient.userId", root -> recipientOf(root).remove("userId"), "recipient.userId"),
                invalid("oversized recipient.name", root -> recipientOf(root).put("name", "ก".repeat(1001)),
                        "recipient.name"),
                invalid("unknown channel", root -> root.putArray("channels").add("EMAIL").add("SMS"), "SMS"),
                invalid("channels not an array", root -> root.put("channels", "EMAIL"), "channels: not an array"),
                invalid("channel not a string", root -> root.putArray("channels").add(1), "channels"),
                invalid("EMAIL without email", root -> recipientOf(root).remove("email"), "recipient.email"),
                invalid("PUSH without pushToken", root -> recipientOf(root).remove("pushToken"), "recipient.pushToken"),
                invalid("blank pushToken", root -> recipientOf(root).put("pushToken", " "), "recipient.pushToken"),
                invalid("pushToken with LF", root -> recipientOf(root).put("pushToken", "abc\nX-Evil: 1"),
                        "recipient.pushToken"),
                email("email with CR/LF", "a@b.com\r\nBcc: x@y.com"),
                email("two addresses", "a@b.com, c@d.com"),
                email("display-name form", "Somchai <a@b.com>"),
                email("not an address", "nope"),
                email("empty email", ""),
                email("group", "team: a@b.com, c@d.com;"),
                invalid("email as number", root -> recipientOf(root).put("email", 42), "recipient.email"));
    }

    private String rejectionOf(byte[] value) {
        return rejectionOf(parser, value);
    }

    /** The reason, after checking it is a usable one: present and on one line. */
    private static String rejectionOf(EventParser parser, byte[] value) {
        Throwable rejected = catchThrowable(() -> parser.parse(value));
        assertThat(rejected).isInstanceOf(InvalidEventException.class);
        assertThat(rejected.getMessage()).isNotBlank().doesNotContain("\n").doesNotContain("\r");
        return rejected.getMessage();
    }

    private static Arguments raw(String description, String value, String expectedInReason) {
        return arguments(description, value.getBytes(StandardCharsets.UTF_8), expectedInReason);
    }

    private static Arguments invalid(String description, Consumer<ObjectNode> change, String expectedInReason) {
        return arguments(description, bytesWith(change), expectedInReason);
    }

    private static Arguments email(String description, String email) {
        return invalid(description, root -> recipientOf(root).put("email", email), "recipient.email");
    }
}
