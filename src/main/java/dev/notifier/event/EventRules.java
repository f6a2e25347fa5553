package dev.notifier.event;

import java.time.Clock;
import java.time.Duration;

/**
 * What an incoming event must satisfy beyond its shape, from configuration.
 *
 * @param maxBytes      the largest record value read at all ({@code notifier.event.max-bytes})
 * @param utf8Addresses whether non-ASCII email addresses are accepted, to be sent over SMTPUTF8
 *                      ({@code notifier.smtp.utf8}); otherwise they are dead-lettered
 * @param maxPast       how far {@code occurredAt} may lie in the past ({@code notifier.event.max-past})
 * @param maxFuture     how far it may lie in the future: the producer's clock may be a little ahead
 *                      ({@code notifier.event.max-future})
 * @param channels      the channels an event may name, and the recipient fields holding their addresses
 * @param transferIds   what a transferId may look like ({@code notifier.event.transfer-id-pattern}, never a URL)
 */
public record EventRules(int maxBytes, boolean utf8Addresses, Duration maxPast, Duration maxFuture, Clock clock,
                         ChannelCatalog channels, TransferIds transferIds) {

    public static final Duration DEFAULT_MAX_PAST = Duration.ofDays(365);
    public static final Duration DEFAULT_MAX_FUTURE = Duration.ofDays(1);

    /** With the default transferId pattern. */
    public EventRules(int maxBytes, boolean utf8Addresses, Duration maxPast, Duration maxFuture, Clock clock,
                      ChannelCatalog channels) {
        this(maxBytes, utf8Addresses, maxPast, maxFuture, clock, channels, TransferIds.defaults());
    }

    /**
     * The defaults: ASCII addresses only, occurredAt within a year back and a day ahead, the contract's channels, the
     * default transferId pattern.
     */
    public static EventRules defaults(int maxBytes) {
        return new EventRules(maxBytes, false, DEFAULT_MAX_PAST, DEFAULT_MAX_FUTURE, Clock.systemUTC(),
                ChannelCatalog.standard());
    }

    public EventRules withUtf8Addresses(boolean allowed) {
        return new EventRules(maxBytes, allowed, maxPast, maxFuture, clock, channels, transferIds);
    }

    public EventRules withChannels(ChannelCatalog catalog) {
        return new EventRules(maxBytes, utf8Addresses, maxPast, maxFuture, clock, catalog, transferIds);
    }

    public EventRules withTransferIds(TransferIds rule) {
        return new EventRules(maxBytes, utf8Addresses, maxPast, maxFuture, clock, channels, rule);
    }
}
