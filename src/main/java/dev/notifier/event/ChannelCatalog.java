package dev.notifier.event;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The channels in use and what each needs from a recipient, from configuration
 * ({@code notifier.channels}, {@code notifier.channel.<channel>.address}): adding a channel takes its
 * route, its templates and these lines, no schema and no Java change.
 */
public final class ChannelCatalog {

    /** The recipient's field that holds an email address, checked as one ({@link EmailAddresses}). */
    public static final String EMAIL_FIELD = "email";

    private final Map<Channel, String> addressFields;
    /** Read for every event parsed: worked out once, not streamed anew each time. */
    private final List<String> distinctAddressFields;

    private ChannelCatalog(Map<Channel, String> addressFields) {
        if (addressFields.isEmpty()) {
            throw new IllegalStateException("notifier.channels names no channel");
        }
        this.addressFields = Collections.unmodifiableMap(addressFields);
        this.distinctAddressFields = addressFields.values().stream().distinct().toList();
    }

    /** The contract's three: EMAIL to {@code email}, PUSH to {@code pushToken}, LINE to {@code lineUserId}. */
    public static ChannelCatalog standard() {
        Map<Channel, String> fields = new LinkedHashMap<>();
        fields.put(Channel.EMAIL, EMAIL_FIELD);
        fields.put(Channel.PUSH, "pushToken");
        fields.put(Channel.LINE, "lineUserId");
        return new ChannelCatalog(fields);
    }

    /**
     * @param channels the comma-separated channel names ({@code notifier.channels})
     * @param property a configuration property by name, empty when unset
     */
    public static ChannelCatalog from(String channels, Function<String, Optional<String>> property) {
        Map<Channel, String> fields = new LinkedHashMap<>();
        for (String name : channels.split(",")) {
            if (name.isBlank()) {
                continue;
            }
            Channel channel = Channel.of(name);
            String key = "notifier.channel." + channel.id() + ".address";
            String field = property.apply(key).map(String::strip).filter(f -> !f.isEmpty())
                    .orElseThrow(() -> new IllegalStateException("channel " + channel + " is in notifier.channels but " + key
                            + " (the recipient's field with its address) is not set"));
            if (!field.matches("[A-Za-z][A-Za-z0-9_]{0,63}") || field.equals("userId") || field.equals("name")
                    || field.equals("locale")) {
                throw new IllegalStateException(key + " = " + field + " is not a recipient address field name");
            }
            if (fields.put(channel, field) != null) {
                throw new IllegalStateException("channel " + channel + " is named twice in notifier.channels");
            }
        }
        if (fields.containsKey(Channel.EMAIL) && !EMAIL_FIELD.equals(fields.get(Channel.EMAIL))) {
            throw new IllegalStateException("notifier.channel.email.address must be " + EMAIL_FIELD);
        }
        return new ChannelCatalog(fields);
    }

    public List<Channel> channels() {
        return new ArrayList<>(addressFields.keySet());
    }

    public boolean contains(Channel channel) {
        return addressFields.containsKey(channel);
    }

    /** The recipient's field holding the channel's address. */
    public String addressField(Channel channel) {
        String field = addressFields.get(channel);
        if (field == null) {
            throw new IllegalArgumentException("unknown channel " + channel);
        }
        return field;
    }

    /** Every address field, once, in the channels' order. */
    public List<String> addressFields() {
        return distinctAddressFields;
    }

    /** The channel's address in the recipient, or {@code null}. */
    public String addressOf(Recipient recipient, Channel channel) {
        return recipient.address(addressField(channel));
    }
}
