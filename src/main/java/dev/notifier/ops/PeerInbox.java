package dev.notifier.ops;

import java.time.Instant;
import java.util.List;

/**
 * What an embedded peer (the demo's SMTP server and push gateway) received, so the status page can
 * show it as the customer would see it. Bound in the registry as {@code peerInbox} only in the demo.
 */
public interface PeerInbox {

    /** The newest first. */
    List<ReceivedMessage> received(int limit);

    /**
     * @param channel EMAIL or PUSH
     * @param key     Message-ID or Idempotency-Key
     * @param to      the address or token, already masked for display
     */
    record ReceivedMessage(String channel, String key, String to, String title, String body, Instant receivedAt) {
    }
}
