package dev.notifier.bounce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.notifier.ops.CamelStatistics;
import dev.notifier.support.Dsn;
import dev.notifier.support.Dsn.Relay;
import dev.notifier.support.Events;
import dev.notifier.support.PipelineTestBase;
import dev.notifier.support.TestKafka;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bounce mailbox on a real IMAP server (GreenMail), fed the DSNs a relay would write, against real
 * Kafka, PostgreSQL, SMTP server and push gateway: a failed DSN ends the email BOUNCED and suppresses the
 * address; the same DSN twice, a forged one and mail that is no DSN change nothing.
 */
class BounceMailboxTest extends PipelineTestBase {

    private static final String GONE = "gone@example.com";
    private static final String ALIVE = "alive@example.com";
    private GreenMail mailbox;
    private GreenMailUser bounces;

    @BeforeEach
    void startMailbox() {
        mailbox = new GreenMail(ServerSetupTest.IMAP.dynamicPort());
        mailbox.start();
        bounces = mailbox.setUser("bounces@bank.test", "bounces", "bounce-mailbox-password");
    }

    @AfterEach
    void stopMailbox() {
        mailbox.stop();
    }

    @Test
    void shouldMarkTheEmailBouncedOnceAndSuppressTheAddressWhileOtherChannelsGoOn() throws Exception {
        startNotifier(withMailbox());
        UUID first = send(GONE);
        UUID alive = send(ALIVE);
        await().atMost(Duration.ofSeconds(60)).until(() -> sentCount() == 4);
        // the envelope sender is the bounce address, so bounces reach this mailbox; From: is unchanged
        MimeMessage sent = peers.emails()[0];
        assertThat(sent.getHeader("Return-Path", null)).contains("bounces@bank.test");
        assertThat(sent.getFrom()[0].toString()).doesNotContain("bounces@bank.test");

        String dsn = Dsn.text(Relay.POSTFIX, "<dsn-gone@relay.bank.test>", first, GONE, "failed", "5.1.1",
                "550 5.1.1 <" + GONE + ">: Recipient address rejected: User unknown");
        deliver(dsn);
        deliver(dsn);
        // forged: alive's key, but the address it names is not the one that email went to
        deliver(Dsn.text(Relay.EXIM, "<forged@relay.bank.test>", alive, GONE, "failed", "5.1.1", "550 no such user"));
        deliver(Dsn.text(Relay.EXCHANGE, "<late@relay.bank.test>", alive, ALIVE, "delayed", "4.4.7", "451 4.4.7 still trying"));
        for (int i = 0; i < 20; i++) {
            deliver("From: someone@example.com\r\nSubject: Out of office " + i + "\r\nMessage-ID: <ooo-" + i
                    + "@example.com>\r\n\r\nI am away until Monday.\r\n");
        }

        CamelStatistics statistics = new CamelStatistics(notifier.context());
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(statistics.bounces("hard")).isEqualTo(1);
            assertThat(statistics.bounces("delayed")).isEqualTo(1);
            assertThat(statistics.bounces("unmatched")).as("the forged DSN and the auto-replies").isEqualTo(21);
        });
        assertThat(status(first, "EMAIL")).isEqualTo("BOUNCED");
        assertThat(db.jdbc().queryForObject("SELECT last_error FROM notifications WHERE event_id = ? AND channel = 'EMAIL'",
                String.class, first)).startsWith("bounced: 5.1.1 failed: 550 5.1.1").doesNotContain(GONE);
        assertThat(status(first, "PUSH")).isEqualTo("SENT");
        assertThat(status(alive, "EMAIL")).as("the forged DSN named another address").isEqualTo("SENT");
        assertThat(db.jdbc().queryForList("SELECT outcome FROM notification_attempts WHERE event_id = ? AND channel = 'EMAIL'"
                + " ORDER BY id", String.class, first)).containsExactly("SENT", "BOUNCED");
        assertThat(db.jdbc().queryForList("SELECT outcome FROM notification_attempts WHERE event_id = ? AND channel = 'EMAIL'"
                + " ORDER BY id", String.class, alive)).containsExactly("SENT", "DELAYED");
        assertThat(db.count("SELECT count(*) FROM bounce_inbox")).as("one key per DSN read, the duplicate none").isEqualTo(3);

        // the next transfer to the dead address: its email FAILED without the relay, its push as usual
        UUID second = send(GONE);
        await().atMost(Duration.ofSeconds(60)).until(() -> "SENT".equals(status(second, "PUSH"))
                && "FAILED".equals(status(second, "EMAIL")));
        assertThat(db.jdbc().queryForObject("SELECT last_error FROM notifications WHERE event_id = ? AND channel = 'EMAIL'",
                String.class, second))// the address masked, as in every stored error
                .matches("suppressed: g\\*\\*\\*@example\\.com bounced 5\\.1\\.1 on \\d{4}-\\d{2}-\\d{2}");
        assertThat(peers.emails()).as("the relay got no second email to the dead address").hasSize(2);
    }

    @Test
    void shouldChangeEachEmailOnceWhenTwoInstancesReadOneMailbox() throws Exception {
        Map<String, String> settings = withMailbox();
        startNotifier(settings);
        try (var second = dev.notifier.support.RunningNotifier.start(settings)) {
            List<UUID> events = new java.util.ArrayList<>();
            for (int i = 0; i < 10; i++) {
                events.add(send("gone-" + i + "@example.com"));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> sentCount() == 20);
            for (int i = 0; i < events.size(); i++) {
                String dsn = Dsn.text(Relay.values()[i % Relay.values().length], "<dsn-" + i + "@relay.bank.test>", events.get(i),
                        "gone-" + i + "@example.com", "failed", "5.1.1", "550 5.1.1 user unknown");
                deliver(dsn);
                deliver(dsn);
            }

            await().atMost(Duration.ofSeconds(60)).until(() ->
                    db.count("SELECT count(*) FROM notifications WHERE channel = 'EMAIL' AND status = 'BOUNCED'") == 10);
            CamelStatistics one = new CamelStatistics(notifier.context());
            CamelStatistics two = new CamelStatistics(second.context());
            await().atMost(Duration.ofSeconds(30)).until(() -> unreadInMailbox() == 0);
            assertThat(one.bounces("hard") + two.bounces("hard")).as("each DSN counted once, by one instance").isEqualTo(10);
            assertThat(db.count("SELECT count(*) FROM notification_attempts WHERE outcome = 'BOUNCED'")).isEqualTo(10);
            assertThat(db.count("SELECT count(*) FROM bounce_inbox")).isEqualTo(10);
            assertThat(db.count("SELECT count(*) FROM email_suppressions")).isEqualTo(10);
        }
    }

    /**
     * The transaction that marks the email rolls back (here: the database refuses the history entry once),
     * so the mail is not flagged read: the next poll reads it again, and it counts once. A 20 MB mail in
     * the same mailbox is set aside on its size without being fetched.
     */
    @Test
    void shouldProcessADsnOnceAfterItsTransactionRolledBackAndSetAsideAHugeMail() throws Exception {
        db.jdbc().execute("CREATE SEQUENCE bounce_fail_once");
        db.jdbc().execute("""
                CREATE FUNCTION bounce_fail_once() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.outcome = 'BOUNCED' THEN
                        IF nextval('bounce_fail_once') = 1 THEN
                            RAISE EXCEPTION 'the database went away mid-transaction';
                        END IF;
                    END IF;
                    RETURN NEW;
                END $$""");
        db.jdbc().execute("CREATE TRIGGER bounce_fail_once BEFORE INSERT ON notification_attempts"
                + " FOR EACH ROW EXECUTE FUNCTION bounce_fail_once()");
        startNotifier(withMailbox());
        UUID eventId = send(GONE);
        await().atMost(Duration.ofSeconds(60)).until(() -> sentCount() == 2);
        StringBuilder huge = new StringBuilder("From: spam@example.com\r\nSubject: big\r\nMessage-ID: <huge@example.com>\r\n\r\n");
        String line = "x".repeat(998) + "\r\n";
        while (huge.length() < 20 * 1024 * 1024) {
            huge.append(line);
        }
        deliver(huge.toString());
        deliver(Dsn.text(Relay.GMAIL, "<once@google>", eventId, GONE, "failed", "5.1.1", "550 5.1.1 The email account does not exist"));

        CamelStatistics statistics = new CamelStatistics(notifier.context());
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(status(eventId, "EMAIL")).isEqualTo("BOUNCED");
            assertThat(unreadInMailbox()).isZero();
        });
        assertThat(db.jdbc().queryForObject("SELECT last_value FROM bounce_fail_once", Long.class))
                .as("the first try was rolled back, the second committed").isEqualTo(2);
        assertThat(db.count("SELECT count(*) FROM notification_attempts WHERE outcome = 'BOUNCED'")).isEqualTo(1);
        assertThat(statistics.bounces("hard")).isEqualTo(1);
        assertThat(statistics.bounces("unmatched")).as("the 20 MB mail, set aside").isEqualTo(1);
    }

    /**
     * A flood: 150 auto-replies already in the mailbox at start, 15 read per poll, a poll every 30 s, and
     * a real DSN behind them. The mailbox is read on at once while a poll took mails and none failed, so
     * the DSN is recorded within about a poll, not after ten (300 s); every auto-reply is read, counted
     * once and changes nothing.
     */
    @Test
    void shouldWorkOffAFloodOfNonDsnMailWithoutHoldingTheRealBounceBack() throws Exception {
        int flood = 150;
        for (int i = 0; i < flood; i++) {
            deliver("From: customer" + i + "@example.com\r\nTo: bounces@bank.test\r\nSubject: Out of office\r\n"
                    + "Auto-Submitted: auto-replied\r\nMessage-ID: <ooo-" + i + "@example.com>\r\n\r\nI am away until Monday.\r\n");
        }
        Map<String, String> settings = withMailbox();
        settings.put("notifier.bounces.poll-millis", "30000");
        settings.put("notifier.bounces.max-per-poll", "15");
        long start = System.nanoTime();
        startNotifier(settings);
        UUID eventId = send(GONE);
        await().atMost(Duration.ofSeconds(60)).until(() -> sentCount() == 2);
        deliver(Dsn.text(Relay.EXIM, "<flood@relay.bank.test>", eventId, GONE, "failed", "5.1.1", "550 5.1.1 user unknown"));

        CamelStatistics statistics = new CamelStatistics(notifier.context());
        await().atMost(Duration.ofSeconds(100)).until(() -> "BOUNCED".equals(status(eventId, "EMAIL")));
        System.out.printf("bounce flood: %d non-DSN mails and 1 DSN recorded %d ms after the start%n", flood,
                (System.nanoTime() - start) / 1_000_000);
        await().atMost(Duration.ofSeconds(30)).until(() -> unreadInMailbox() == 0);
        assertThat(statistics.bounces("unmatched")).as("each auto-reply set aside once").isEqualTo(flood);
        assertThat(statistics.bounces("hard")).isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM notification_attempts WHERE outcome = 'BOUNCED'")).isEqualTo(1);
    }

    private long unreadInMailbox() throws Exception {
        return mailbox.getManagers().getImapHostManager().getInbox(bounces).getMessages().stream()
                .filter(m -> !m.getFlags().contains(jakarta.mail.Flags.Flag.SEEN)).count();
    }

    private Map<String, String> withMailbox() {
        Map<String, String> settings = settings();
        settings.put("notifier.bounce.imap-url", "imap://127.0.0.1:" + mailbox.getImap().getPort() + "/INBOX");
        settings.put("notifier.bounce.user", "bounces");
        settings.put("notifier.bounce.password", "bounce-mailbox-password");
        settings.put("notifier.bounce.address", "bounces@bank.test");
        settings.put("notifier.bounces.poll-millis", "200");
        return settings;
    }

    private UUID send(String address) throws Exception {
        UUID eventId = UUID.randomUUID();
        String json = Events.json(eventId, "en", "[\"EMAIL\",\"PUSH\"]").replace(Events.emailOf(eventId), address);
        TestKafka.send(topic, List.of(Events.record(topic, "k", json)));
        return eventId;
    }

    private void deliver(String text) {
        bounces.deliver(Dsn.message(text));
    }

    private String status(UUID eventId, String channel) {
        return db.jdbc().queryForObject("SELECT status FROM notifications WHERE event_id = ? AND channel = ?", String.class,
                eventId, channel);
    }
}
