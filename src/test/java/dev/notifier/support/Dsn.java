package dev.notifier.support;

import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.UUID;

/**
 * Delivery status notifications (RFC 3464) as the common relays write them, for an email Notifier sent:
 * the bytes a relay would put in the bounce mailbox.
 */
public final class Dsn {

    public enum Relay { POSTFIX, EXIM, EXCHANGE, GMAIL }

    private Dsn() {
    }

    /** A report from {@code relay} about the email of {@code eventId} to {@code recipient}. */
    public static String text(Relay relay, String reportId, UUID eventId, String recipient, String action, String status,
                              String diagnostic) {
        String originalHeaders = "Message-ID: <" + eventId + ".email@notifier>\r\n"
                + "X-Notification-Key: " + eventId + ":EMAIL\r\n"
                + "From: Bank <no-reply@bank.test>\r\nTo: " + recipient + "\r\nSubject: Transfer completed\r\n";
        return switch (relay) {
            case POSTFIX -> report(reportId, "MAILER-DAEMON@relay.bank.test (Mail Delivery System)", "text/rfc822-headers",
                    "Reporting-MTA: dns; relay.bank.test\r\nX-Postfix-Queue-ID: 4Q1xYz\r\nArrival-Date: Sun, 6 Dec 2026 03:00:00 +0000\r\n\r\n"
                            + "Final-Recipient: rfc822; " + recipient + "\r\nOriginal-Recipient: rfc822;" + recipient + "\r\n"
                            + "Action: " + action + "\r\nStatus: " + status + "\r\nRemote-MTA: dns; mx.example.com\r\n"
                            + "Diagnostic-Code: smtp; " + diagnostic + "\r\n",
                    originalHeaders);
            // Exim: the whole message returned, lower-case field names
            case EXIM -> report(reportId, "Mail Delivery System <Mailer-Daemon@relay.bank.test>", "message/rfc822",
                    "Reporting-MTA: dns; relay.bank.test\r\n\r\n"
                            + "action: " + action + "\r\nfinal-recipient: rfc822;" + recipient + "\r\nstatus: " + status + "\r\n"
                            + "remote-mta: dns; mx.example.com\r\ndiagnostic-code: smtp; " + diagnostic + "\r\n",
                    originalHeaders + "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\nYour transfer completed.\r\n");
            // Exchange: no space after the type, a status with a three-digit detail
            case EXCHANGE -> report(reportId, "postmaster@bank.test", "text/rfc822-headers",
                    "Reporting-MTA: dns;EXCH01.bank.test\r\nReceived-From-MTA: dns;EXCH02.bank.test\r\n\r\n"
                            + "Final-Recipient: rfc822;" + recipient + "\r\nAction: " + action + "\r\nStatus: " + status + "\r\n"
                            + "Diagnostic-Code: smtp;" + diagnostic + "\r\n",
                    originalHeaders);
            // Gmail: folded diagnostic, Original-Recipient only
            case GMAIL -> report(reportId, "Mail Delivery Subsystem <mailer-daemon@googlemail.com>", "text/rfc822-headers",
                    "Reporting-MTA: dns; googlemail.com\r\nArrival-Date: Sun, 06 Dec 2026 03:00:00 -0800 (PST)\r\n\r\n"
                            + "Original-Recipient: rfc822;" + recipient + "\r\nAction: " + action + "\r\nStatus: " + status + "\r\n"
                            + "Diagnostic-Code: smtp; " + diagnostic + "\r\n  https://support.google.com/mail/?p=NoSuchUser\r\n",
                    originalHeaders);
        };
    }

    public static MimeMessage message(String text) {
        try {
            return new MimeMessage(Session.getInstance(new Properties()),
                    new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String report(String reportId, String from, String returnedType, String status, String returned) {
        String boundary = "=_report_" + Integer.toHexString(status.hashCode());
        return "From: " + from + "\r\nTo: bounces@bank.test\r\nSubject: Undelivered Mail Returned to Sender\r\n"
                + (reportId == null ? "" : "Message-ID: " + reportId + "\r\n")
                + "Date: Sun, 6 Dec 2026 03:00:05 +0000\r\nMIME-Version: 1.0\r\n"
                + "Content-Type: multipart/report; report-type=delivery-status;\r\n\tboundary=\"" + boundary + "\"\r\n\r\n"
                + "This is a MIME-encapsulated message.\r\n\r\n--" + boundary + "\r\n"
                + "Content-Type: text/plain; charset=us-ascii\r\n\r\nI'm sorry to have to inform you that your message could not\r\n"
                + "be delivered to one or more recipients.\r\n\r\n--" + boundary + "\r\n"
                + "Content-Type: message/delivery-status\r\n\r\n" + status + "\r\n--" + boundary + "\r\n"
                + "Content-Type: " + returnedType + "\r\n\r\n" + returned + "\r\n--" + boundary + "--\r\n";
    }
}
