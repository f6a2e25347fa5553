package dev.notifier.delivery.email;

import dev.notifier.delivery.ClaimedNotification;
import dev.notifier.delivery.NotificationKey;
import dev.notifier.delivery.UndeliverableException;
import dev.notifier.delivery.template.Templates;
import dev.notifier.event.Channel;
import dev.notifier.event.EmailAddresses;
import dev.notifier.event.InvalidEventException;
import dev.notifier.event.TransferEvent;
import dev.notifier.event.UntrustedText;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import jakarta.activation.DataHandler;
import jakarta.mail.util.ByteArrayDataSource;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Properties;

/**
 * Builds the whole email from the event's own fields and the email templates (subject.txt, body.txt,
 * body.html: plain text and HTML side by side, multipart/alternative). The route hands camel-mail a
 * finished MimeMessage, so no exchange or Kafka header can add a recipient or a header line, and a
 * template can only write the subject's text and the bodies: every header is set here.
 */
public class EmailComposer {

    /** The email templates, in templates/email/<language>/. */
    public static final List<String> TEMPLATES = List.of("subject.txt", "body.txt", "body.html");

    /**
     * Jakarta Mail asks for its {@code StreamProvider} on every subject, header and body it encodes
     * or decodes, and without this system property each ask is a {@code ServiceLoader} scan of the
     * class path (in the packaged jar: 6.6 % of the service's CPU while delivering, measured with
     * JFR in the benchmark). Naming the provider Angus Mail registers turns the lookup into a
     * {@code Class.forName}. An operator's own setting wins.
     */
    static final String STREAM_PROVIDER = "jakarta.mail.util.StreamProvider";

    static {
        System.getProperties().putIfAbsent(STREAM_PROVIDER, "org.eclipse.angus.mail.util.MailStreamProvider");
    }

    /** RFC 5322 dates, formatted without MailDateFormat's per-call SimpleDateFormat. */
    private static final DateTimeFormatter DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

    private final Session session;
    private final InternetAddress from;
    private final Templates templates;

    public EmailComposer(String from, Templates templates) throws InvalidEventException {
        this(from, templates, false);
    }

    /**
     * @param utf8 SMTPUTF8 is on: the message's headers may then carry a non-ASCII address as UTF-8
     *             (written byte by byte otherwise, which would spoil any such header)
     * @throws InvalidEventException when the sender address is not one deliverable address
     */
    public EmailComposer(String from, Templates templates, boolean utf8) throws InvalidEventException {
        Properties properties = new Properties();
        properties.setProperty("mail.mime.allowutf8", String.valueOf(utf8));
        this.session = Session.getInstance(properties);
        this.from = envelopeAddress(EmailAddresses.requireDeliverable(from, utf8));
        this.templates = templates;
    }

    /** The whole message; whatever stops it from being built stops it every time ({@link UndeliverableException}). */
    public MimeMessage compose(ClaimedNotification notification) {
        TransferEvent event = notification.readEvent();
        try {
            return build(event, notification.key());
        } catch (MessagingException | InvalidEventException | RuntimeException e) {
            throw new UndeliverableException("cannot compose the email: " + e.getMessage(), e);
        }
    }

    private MimeMessage build(TransferEvent event, NotificationKey key) throws MessagingException, InvalidEventException {
        InternetAddress to = envelopeAddress(EmailAddresses.requireDeliverable(event.recipient().email(), true));
        List<String> texts = templates.renderAll(Channel.EMAIL, TEMPLATES, event, event.recipient().email());
        // a template writes text, never a header line: the subject is one line whatever it renders
        String subject = UntrustedText.oneLine(texts.get(0), 200);
        StableIdMimeMessage message = new StableIdMimeMessage(session, "<" + event.eventId() + ".email@notifier>", to,
                subject);
        message.setFrom(from);
        message.setRecipient(Message.RecipientType.TO, to);
        message.setSubject(subject, "UTF-8");
        MimeMultipart alternatives = new MimeMultipart("alternative");
        alternatives.addBodyPart(part(texts.get(1), "text/plain; charset=UTF-8"));
        alternatives.addBodyPart(part(texts.get(2), "text/html; charset=UTF-8"));
        message.setContent(alternatives);
        message.setHeader("Date", DATE.format(ZonedDateTime.now(ZoneOffset.UTC)));
        message.setHeader("X-Notification-Key", key.idempotencyKey());
        message.saveChanges();
        return message;
    }

    /**
     * One alternative, as bytes with its encoding named: Jakarta Mail would otherwise look up a content
     * handler and scan the text to choose an encoding, on every message.
     */
    private static MimeBodyPart part(String text, String contentType) throws MessagingException {
        MimeBodyPart part = new MimeBodyPart();
        part.setDataHandler(new DataHandler(new ByteArrayDataSource(text.getBytes(StandardCharsets.UTF_8), contentType)));
        part.setHeader("Content-Transfer-Encoding", "base64");
        return part;
    }

    /**
     * The address exactly as validated, not parsed again: InternetAddress's own parser would be a
     * second opinion on what the recipient is, and the envelope must be this string.
     */
    static InternetAddress envelopeAddress(String address) {
        InternetAddress to = new InternetAddress();
        to.setAddress(address);
        return to;
    }
}
