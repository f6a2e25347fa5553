package dev.notifier.demo;

import dev.notifier.ops.PeerInbox;
import java.util.Comparator;
import java.util.List;

/** Several peers' inboxes read as one, newest first: what the demo binds as {@code peerInbox}. */
final class CombinedPeerInbox implements PeerInbox {

    private final List<PeerInbox> peers;

    CombinedPeerInbox(PeerInbox... peers) {
        this.peers = List.of(peers);
    }

    @Override
    public List<ReceivedMessage> received(int limit) {
        return peers.stream()
                .flatMap(peer -> peer.received(limit).stream())
                .sorted(Comparator.comparing(ReceivedMessage::receivedAt).reversed())
                .limit(limit)
                .toList();
    }
}
