package dev.notifier.demo;

import com.icegreen.greenmail.store.StoredMessage;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.notifier.ops.PeerInbox;
import jakarta.mail.Address;
import jakarta.mail.MessagingException;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;

/** GreenMail's SMTP server on 127.0.0.1: accepts every message for every recipient and keeps it. */
final class EmbeddedSmtpServer implements PeerInbox, AutoCloseable {

    private final GreenMail greenMail;

    private EmbeddedSmtpServer(GreenMail greenMail) {
        this.greenMail = greenMail;
    }

    static EmbeddedSmtpServer start(int port) {
        GreenMail greenMail = new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        greenMail.start();
        return new EmbeddedSmtpServer(greenMail);
    }

    int port() {
        return greenMail.getSmtp().getPort();
    }

    @Override
    public List<ReceivedMessage> received(int limit) {
        return greenMail.getManagers().getImapHostManager().getAllMessages().stream()
                .sorted(Comparator.comparing(StoredMessage::getReceivedDate).reversed())
                .limit(limit)
                .map(EmbeddedSmtpServer::toReceived)
                .toList();
    }

    private static ReceivedMessage toReceived(StoredMessage stored) {
        MimeMessage message = stored.getMimeMessage();
        try {
            Address[] to = message.getRecipients(Message.RecipientType.TO);
            return new ReceivedMessage("EMAIL", message.getMessageID(),
                    to == null || to.length == 0 ? "" : Masks.email(to[0].toString()),
                    message.getSubject(), MailText.plain(message),
                    stored.getReceivedDate().toInstant());
        } catch (MessagingException | IOException e) {
            throw new IllegalStateException("GreenMail holds a message it cannot read back", e);
        }
    }

    @Override
    public void close() {
        greenMail.stop();
    }
}
