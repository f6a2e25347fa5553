package dev.notifier.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.notifier.event.Channel;
import dev.notifier.event.ChannelCatalog;
import dev.notifier.event.TransferEvent;
import dev.notifier.support.ContractEvent;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ChannelPlannerTest {

    private static final Set<Channel> NO_OPT_OUTS = Set.of();

    private final ChannelPlanner planner = new ChannelPlanner(ChannelCatalog.standard());

    @Nested
    class ExplicitChannels {

        @Test
        void shouldPlanExactlyTheRequestedChannels() {
            TransferEvent event = ContractEvent.event().channels(Channel.PUSH).build();

            assertThat(names(planner.channels(event, NO_OPT_OUTS))).containsExactly("PUSH");
        }

        @Test
        void shouldKeepRequestedChannelsTheRecipientOptedOutOf() {
            TransferEvent event = ContractEvent.event().channels(Channel.EMAIL, Channel.PUSH).build();

            assertThat(names(planner.channels(event, optOuts("EMAIL", "PUSH")))).containsExactly("EMAIL", "PUSH");
        }
    }

    @Nested
    class DerivedChannels {

        @ParameterizedTest(name = "email={0}, pushToken={1} -> {2}")
        @MethodSource("dev.notifier.inbox.ChannelPlannerTest#addresses")
        void shouldDeriveChannelsFromTheRecipientsAddresses(String email, String pushToken, List<String> expected) {
            TransferEvent event = ContractEvent.event().noChannels().email(email).pushToken(pushToken).build();

            assertThat(names(planner.channels(event, NO_OPT_OUTS))).isEqualTo(expected);
        }

        @ParameterizedTest(name = "opted out of {0}")
        @MethodSource("dev.notifier.inbox.ChannelPlannerTest#optOutCases")
        void shouldRemoveOptedOutChannels(List<String> optedOut, List<String> expected) {
            TransferEvent event = ContractEvent.event().noChannels().build();

            assertThat(names(planner.channels(event, optOuts(optedOut.toArray(String[]::new))))).isEqualTo(expected);
        }

        @Test
        void shouldAddLineForARecipientWithALineUserId() {
            TransferEvent event = ContractEvent.event().noChannels().lineUserId(ContractEvent.LINE_USER_ID).build();

            assertThat(names(planner.channels(event, NO_OPT_OUTS))).containsExactly("EMAIL", "PUSH", "LINE");
            assertThat(names(planner.channels(event, optOuts("PUSH")))).containsExactly("EMAIL", "LINE");
        }

        @Test
        void shouldPlanOnlyTheChannelsInUse() {
            // LINE switched off by configuration: an address for it is not a reason to plan it
            ChannelPlanner emailAndPush = new ChannelPlanner(ChannelCatalog.from("EMAIL,PUSH",
                    name -> Optional.ofNullable(Map.of("notifier.channel.email.address", "email",
                            "notifier.channel.push.address", "pushToken").get(name))));
            TransferEvent event = ContractEvent.event().noChannels().lineUserId(ContractEvent.LINE_USER_ID).build();

            assertThat(names(emailAndPush.channels(event, NO_OPT_OUTS))).containsExactly("EMAIL", "PUSH");
        }

        @Test
        void shouldPlanNothingForARecipientWithoutAddresses() {
            TransferEvent event = ContractEvent.event().noChannels().email(null).pushToken(null).build();

            assertThat(names(planner.channels(event, NO_OPT_OUTS))).isEmpty();
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

    private static List<String> names(List<Channel> channels) {
        return channels.stream().map(Channel::name).toList();
    }

    private static Set<Channel> optOuts(String... names) {
        return java.util.Arrays.stream(names).map(Channel::of).collect(java.util.stream.Collectors.toSet());
    }
}
