package dev.notifier.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.notifier.event.Channel;
import dev.notifier.event.EventParser;
import dev.notifier.event.TransferEvent;
import dev.notifier.support.ContractEvent;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ChannelPlannerTest {

    private static final List<Map<String, Object>> NO_OPT_OUTS = List.of();
    private static final java.time.Duration FAST_PATH = java.time.Duration.ofSeconds(3);

    private final EventParser parser = new EventParser(65_536);
    private final ChannelPlanner planner = new ChannelPlanner(parser, FAST_PATH);

    @Nested
    class ExplicitChannels {

        @Test
        void shouldPlanExactlyTheRequestedChannels() {
            TransferEvent event = ContractEvent.event().channels(Channel.PUSH).build();

            assertThat(channelsOf(planner.plan(event, NO_OPT_OUTS))).containsExactly("PUSH");
        }

        @Test
        void shouldKeepRequestedChannelsTheRecipientOptedOutOf() {
            TransferEvent event = ContractEvent.event().channels(Channel.EMAIL, Channel.PUSH).build();

            assertThat(channelsOf(planner.plan(event, optOuts("EMAIL", "PUSH")))).containsExactly("EMAIL", "PUSH");
        }
    }

    @Nested
    class DerivedChannels {

        @ParameterizedTest(name = "email={0}, pushToken={1} -> {2}")
        @MethodSource("dev.notifier.inbox.ChannelPlannerTest#addresses")
        void shouldDeriveChannelsFromTheRecipientsAddresses(String email, String pushToken, List<String> expected) {
            TransferEvent event = ContractEvent.event().noChannels().email(email).pushToken(pushToken).build();

            assertThat(channelsOf(planner.plan(event, NO_OPT_OUTS))).isEqualTo(expected);
        }

        @ParameterizedTest(name = "opted out of {0}")
        @MethodSource("dev.notifier.inbox.ChannelPlannerTest#optOutCases")
        void shouldRemoveOptedOutChannels(List<String> optedOut, List<String> expected) {
            TransferEvent event = ContractEvent.event().noChannels().build();

            assertThat(channelsOf(planner.plan(event, optOuts(optedOut.toArray(String[]::new))))).isEqualTo(expected);
        }

        @Test
        void shouldTreatMissingOptOutRowsAsNoOptOuts() {
            TransferEvent event = ContractEvent.event().noChannels().build();

            assertThat(channelsOf(planner.plan(event, null))).containsExactly("EMAIL", "PUSH");
        }

        @Test
        void shouldPlanNothingForARecipientWithoutAddresses() {
            TransferEvent event = ContractEvent.event().noChannels().email(null).pushToken(null).build();

            assertThat(planner.plan(event, NO_OPT_OUTS)).isEmpty();
        }
    }

    @Nested
    class PlannedRow {

        @Test
        void shouldCarryEverythingTheInsertNeeds() {
            TransferEvent event = ContractEvent.event().build();
            Date before = new Date();

            List<Map<String, Object>> rows = planner.plan(event, NO_OPT_OUTS);

            Date after = new Date();
            assertThat(rows).hasSize(2).allSatisfy(row -> {
                assertThat(row).containsOnlyKeys("eventId", "channel", "userId", "transferId", "payload", "createdAt",
                                "firstAttemptAt")
                        .containsEntry("eventId", ContractEvent.EVENT_ID)
                        .containsEntry("userId", "u-42")
                        .containsEntry("transferId", "TRX-000123")
                        .containsEntry("payload", parser.toJson(event));
                assertThat((Date) row.get("createdAt")).isBetween(before, after, true, true);
                assertThat(((Date) row.get("firstAttemptAt")).getTime() - ((Date) row.get("createdAt")).getTime())
                        .as("left to the fast path for").isEqualTo(FAST_PATH.toMillis());
            });
        }

        @Test
        void shouldStoreAPayloadThatReadsBackAsTheSameEvent() throws Exception {
            TransferEvent event = ContractEvent.event().noChannels().build();

            List<Map<String, Object>> rows = planner.plan(event, NO_OPT_OUTS);

            for (Map<String, Object> row : rows) {
                assertThat(parser.fromStored((String) row.get("payload"))).isEqualTo(event);
            }
            assertThat(rows).isNotEmpty();
        }

        @Test
        void shouldStampEveryRowOfOneEventWithTheSameCreatedAt() {
            List<Map<String, Object>> rows = planner.plan(ContractEvent.event().build(), NO_OPT_OUTS);

            assertThat(rows).extracting(row -> row.get("createdAt")).containsOnly(rows.get(0).get("createdAt"));
        }
    }

    static Stream<Arguments> addresses() {
        return Stream.of(
                arguments(ContractEvent.EMAIL, ContractEvent.PUSH_TOKEN, List.of("EMAIL", "PUSH")),
                arguments(ContractEvent.EMAIL, null, List.of("EMAIL")),
                arguments(null, ContractEvent.PUSH_TOKEN, List.of("PUSH")),
                arguments(null, null, List.of()));
    }

    static Stream<Arguments> optOutCases() {
        return Stream.of(
                arguments(List.of("EMAIL"), List.of("PUSH")),
                arguments(List.of("PUSH"), List.of("EMAIL")),
                arguments(List.of("EMAIL", "PUSH"), List.of()));
    }

    /** Rows as {@code SELECT channel FROM recipient_preferences ...} returns them. */
    private static List<Map<String, Object>> optOuts(String... channels) {
        return Stream.of(channels).map(channel -> Map.<String, Object>of("channel", channel)).toList();
    }

    private static List<Object> channelsOf(Collection<Map<String, Object>> rows) {
        return rows.stream().map(row -> row.get("channel")).toList();
    }
}
