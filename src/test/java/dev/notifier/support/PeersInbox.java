package dev.notifier.support;

import dev.notifier.event.Mask;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.notifier.ops.PeerInbox;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The demo's {@code peerInbox}, played by the test peers: what GreenMail accepted and the pushes
 * WireMock answered with 2xx, the way the demo's embedded SMTP server and push gateway report them.
 */
public final class PeersInbox implements PeerInbox {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Peers peers;

    public PeersInbox(Peers peers) {
        this.peers = peers;
    }

    @Override
    public List<ReceivedMessage> received(int limit) {
        List<ReceivedMessage> all = new ArrayList<>();
        try {
            for (MimeMessage email : peers.emails()) {
                all.add(new ReceivedMessage("EMAIL", email.getMessageID(), Mask.address(email.getAllRecipients()[0].toString()),
                        email.getSubject(), dev.notifier.demo.MailText.plain(email), sentAt(email)));
            }
            for (var served : peers.push.getAllServeEvents()) {
                if (served.getResponse().getStatus() / 100 != 2) {
                    continue; // refused or failed: the customer never got it
                }
                var push = served.getRequest();
                JsonNode body = JSON.readTree(push.getBodyAsString());
                all.add(new ReceivedMessage("PUSH", push.getHeader("Idempotency-Key"),
                        Mask.pushToken(body.path("token").asText()), body.path("title").asText(),
                        body.path("body").asText(), push.getLoggedDate().toInstant()));
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return all.stream().sorted(Comparator.comparing(ReceivedMessage::receivedAt).reversed()).limit(limit).toList();
    }

    private static Instant sentAt(MimeMessage email) throws MessagingException {
        return email.getSentDate() == null ? Instant.now() : email.getSentDate().toInstant();
    }
}
