package dev.notifier.demo;

import com.icegreen.greenmail.store.StoredMessage;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.notifier.ops.PeerInbox;
import jakarta.mail.Address;
import jakarta.mail.Flags;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * GreenMail on 127.0.0.1: an SMTP server that accepts every message for every recipient and keeps it,
 * and an IMAP server with the bounce mailbox. As a relay would, it reports a recipient whose local part
 * starts with {@value #NO_MAILBOX_PREFIX} as having no mailbox: an RFC 3464 report (5.1.1) goes to the
 * bounce mailbox, which Notifier reads (routes/read-bounces) and marks the email BOUNCED.
 */
final class EmbeddedSmtpServer implements PeerInbox, AutoCloseable {

    static final String NO_MAILBOX_PREFIX = "nobody";
    static final String BOUNCE_ADDRESS = "bounces@notifier.demo";
    static final String BOUNCE_USER = "bounces";
    static final String BOUNCE_PASSWORD = "demo-bounce-mailbox";

    private final GreenMail greenMail;
    private final GreenMailUser bounces;
    private final Set<String> reported = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService relay = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "demo-relay-bounces");
        thread.setDaemon(true);
        return thread;
    });

    private EmbeddedSmtpServer(GreenMail greenMail) {
        this.greenMail = greenMail;
        this.bounces = greenMail.setUser(BOUNCE_ADDRESS, BOUNCE_USER, BOUNCE_PASSWORD);
        relay.scheduleWithFixedDelay(this::reportMissingMailboxes, 100, 100, TimeUnit.MILLISECONDS);
    }

    static EmbeddedSmtpServer start(int smtpPort, int imapPort) {
        // GreenMail's IMAP side warns about every report it stores ("unhandled subtype delivery-status"): noise here
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("com.icegreen.greenmail.store.SimpleMessageAttributes"))
                .setLevel(ch.qos.logback.classic.Level.ERROR);
        GreenMail greenMail = new GreenMail(new ServerSetup[] {
                new ServerSetup(smtpPort, "127.0.0.1", ServerSetup.PROTOCOL_SMTP),
                new ServerSetup(imapPort, "127.0.0.1", ServerSetup.PROTOCOL_IMAP)});
        greenMail.start();
        return new EmbeddedSmtpServer(greenMail);
    }

    int port() {
        return greenMail.getSmtp().getPort();
    }

    int imapPort() {
        return greenMail.getImap().getPort();
    }

    /** Bounces still to come: a mail to a missing mailbox not reported yet, or a report Notifier has not read. */
    long bouncesPending() {
        long unreported = emails().stream().filter(m -> isToMissingMailbox(m) && !reported.contains(id(m))).count();
        long unread = reports().stream().filter(m -> !m.getFlags().contains(Flags.Flag.SEEN)).count();
        return unreported + unread;
    }

    @Override
    public List<ReceivedMessage> received(int limit) {
        return emails().stream()
                .sorted(Comparator.comparing(StoredMessage::getReceivedDate).reversed())
                .limit(limit)
                .map(EmbeddedSmtpServer::toReceived)
                .toList();
    }

    /** What Notifier sent: every message but the bounce mailbox's reports. */
    private List<StoredMessage> emails() {
        List<StoredMessage> reports = reports();
        return greenMail.getManagers().getImapHostManager().getAllMessages().stream()
                .filter(m -> !reports.contains(m)).toList();
    }

    private List<StoredMessage> reports() {
        try {
            return greenMail.getManagers().getImapHostManager().getInbox(bounces).getMessages();
        } catch (com.icegreen.greenmail.store.FolderException e) {
            return List.of();
        }
    }

    private void reportMissingMailboxes() {
        for (StoredMessage mail : emails()) {
            if (isToMissingMailbox(mail) && reported.add(id(mail))) {
                bounces.deliver(report(mail));
            }
        }
    }

    private static boolean isToMissingMailbox(StoredMessage mail) {
        return to(mail.getMimeMessage()).startsWith(NO_MAILBOX_PREFIX);
    }

    private static String id(StoredMessage mail) {
        try {
            return String.valueOf(mail.getMimeMessage().getMessageID());
        } catch (MessagingException e) {
            return String.valueOf(mail.getUid());
        }
    }

    /** The report a relay writes (Postfix's form): the status, and the returned message's headers. */
    private static MimeMessage report(StoredMessage mail) {
        MimeMessage original = mail.getMimeMessage();
        String recipient = to(original);
        String text = "From: MAILER-DAEMON@notifier.demo (Mail Delivery System)\r\nTo: " + BOUNCE_ADDRESS + "\r\n"
                + "Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <bounce." + mail.getUid() + "@notifier.demo>\r\n"
                + "MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n"
                + "--b\r\nContent-Type: text/plain\r\n\r\nThe mail system: the recipient's mailbox does not exist.\r\n"
                + "--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; notifier.demo\r\n\r\n"
                + "Final-Recipient: rfc822; " + recipient + "\r\nAction: failed\r\nStatus: 5.1.1\r\n"
                + "Diagnostic-Code: smtp; 550 5.1.1 <" + recipient + ">: Recipient address rejected: User unknown\r\n"
                + "--b\r\nContent-Type: text/rfc822-headers\r\n\r\n" + headers(original) + "--b--\r\n";
        try {
            return new MimeMessage(Session.getInstance(new Properties()), new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        } catch (MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String headers(MimeMessage original) {
        StringBuilder text = new StringBuilder();
        try {
            for (String line : java.util.Collections.list(original.getAllHeaderLines())) {
                text.append(line).append("\r\n");
            }
        } catch (MessagingException e) {
            // no headers to return
        }
        return text.toString();
    }

    private static String to(MimeMessage message) {
        try {
            Address[] to = message.getRecipients(Message.RecipientType.TO);
            return to == null || to.length == 0 ? "" : ((jakarta.mail.internet.InternetAddress) to[0]).getAddress();
        } catch (MessagingException e) {
            return "";
        }
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
        relay.shutdownNow();
        greenMail.stop();
    }
}
