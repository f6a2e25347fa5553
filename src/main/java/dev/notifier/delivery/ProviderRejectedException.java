package dev.notifier.delivery;

/** A provider answered, and the answer was no. Whether it may say yes later is in {@code permanent}. */
public class ProviderRejectedException extends RuntimeException {

    private final boolean permanent;

    public ProviderRejectedException(String reason, boolean permanent) {
        super(reason);
        this.permanent = permanent;
    }

    public boolean isPermanent() {
        return permanent;
    }
}
