package dev.notifier.event;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;

/**
 * The one rule for an email address we accept from an event: exactly one bare mailbox
 * ({@code local@domain}), nothing that could add a recipient or a header line. A reason quotes the
 * address masked: it ends up in the DLQ header and the log.
 */
public final class EmailAddresses {

    private EmailAddresses() {
    }

    public static InternetAddress requireSingleMailbox(String text) throws InvalidEventException {
        if (EventFields.hasControl(text)) {
            throw new InvalidEventException("recipient.email: contains CR, LF or other control characters");
        }
        try {
            InternetAddress[] parsed = InternetAddress.parse(text, true);
            if (parsed.length != 1) {
                throw new InvalidEventException("recipient.email: holds " + parsed.length + " addresses, exactly one is allowed");
            }
            InternetAddress address = parsed[0];
            address.validate();
            if (address.getPersonal() != null || !address.getAddress().equals(text.strip())
                    || address.isGroup() || !address.getAddress().contains("@")) {
                throw new InvalidEventException("recipient.email: '" + Mask.address(text) + "' is not a single bare address");
            }
            return address;
        } catch (AddressException e) {
            throw new InvalidEventException("recipient.email: '" + Mask.address(text) + "' is not a valid address ("
                    + e.getMessage() + ")");
        }
    }
}
