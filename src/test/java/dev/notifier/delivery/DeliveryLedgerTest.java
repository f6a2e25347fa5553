package dev.notifier.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.notifier.event.EventParser;
import dev.notifier.inbox.ChannelPlanner;
import dev.notifier.inbox.NotificationRows;
import dev.notifier.event.Channel;
import dev.notifier.support.ContractEvent;
import dev.notifier.support.DatabaseTestBase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The row's transitions ({@link NotificationStates}) against PostgreSQL: each one's fence, and the poller's batch. */
class DeliveryLedgerTest extends DatabaseTestBase {

    private static final Duration LEASE = Duration.ofSeconds(60);

    private final EventParser parser = new EventParser(65_536);
    private final DeliverySchedule schedule = new DeliverySchedule(Duration.ofSeconds(1), Duration.ofMinutes(1), LEASE, 3,
            Duration.ofHours(24));
    private TransactionTemplate transactions;
    private DeliveryLedger ledger;
    private NotificationRows rows;

    @BeforeEach
    void ledger() {
        transactions = new TransactionTemplate(new JdbcTransactionManager(db.jdbc().getDataSource()));
        ledger = new DeliveryLedger(db.jdbc().getDataSource(), transactions, 200, schedule, parser);
        rows = new NotificationRows(db.jdbc().getDataSource(), parser, new ChannelPlanner(dev.notifier.event.ChannelCatalog.standard()), schedule);
    }

    @AfterEach
    void close() {
        ledger.close();
    }

    @Nested
    class BornClaimed {

        @Test
        void shouldInsertEachChannelsRowClaimedByItsTokenWithItsFirstAttempt() {
            List<ClaimedNotification> claimed = recorded();

            assertThat(claimed).extracting(c -> c.key().channel()).containsExactly(Channel.EMAIL, Channel.PUSH);
            assertThat(claimed).allSatisfy(c -> {
                assertThat(c.attempt()).isEqualTo(1);
                assertThat(events.row(c.key().eventId(), c.key().channel().name())).containsEntry("status", "SENDING")
                        .containsEntry("attempts", 1).containsEntry("claim_token", claimed.get(0).claimToken());
            });
            assertThat(recorded().get(0).claimToken()).as("each insert its own token").isNotEqualTo(claimed.get(0).claimToken());
        }

        @Test
        void shouldClaimOnlyTheRowsItInsertedWhateverTheDriverCountsForABatch() {
            // PgJDBC rewrites a batch of inserts into one statement and answers SUCCESS_NO_INFO (-2) for each row
            var rewriting = new org.springframework.jdbc.datasource.DriverManagerDataSource(
                    db.url() + "?reWriteBatchedInserts=true", dev.notifier.support.TestDatabase.USER, "");
            NotificationRows rewritingRows = new NotificationRows(rewriting, parser,
                    new ChannelPlanner(dev.notifier.event.ChannelCatalog.standard()), schedule);
            UUID known = recorded().get(0).key().eventId();
            UUID fresh = UUID.randomUUID();

            List<ClaimedNotification> claimed = new TransactionTemplate(new JdbcTransactionManager(rewriting)).execute(s ->
                    rewritingRows.insertClaimed(List.of(ContractEvent.event().eventId(known).build(),
                                    ContractEvent.event().eventId(fresh).build()),
                            List.of(List.of(Channel.EMAIL, Channel.PUSH), List.of(Channel.EMAIL, Channel.PUSH))));

            assertThat(claimed).extracting(c -> c.key().eventId()).containsOnly(fresh).hasSize(2);
        }

        @Test
        void shouldClaimNothingWhenTheRowIsThereAlready() {
            UUID eventId = UUID.randomUUID();
            String first = recorded(eventId).get(0).claimToken();

            assertThat(recorded(eventId)).isEmpty();
            assertThat(db.jdbc().queryForList("SELECT DISTINCT claim_token FROM notifications", String.class))
                    .containsExactly(first);
        }
    }

    @Nested
    class Claims {

        @Test
        void shouldKeepAClaimWithTimeToSpareWithoutWriting() {
            ClaimedNotification email = recorded().get(0);
            db.jdbc().update("UPDATE notifications SET claim_token = 'someone-else'");

            // nobody can have taken over a claim that has not run out: no write, no look
            assertThat(ledger.holdClaim(email)).isSameAs(email);
        }

        @Test
        void shouldRenewAClaimNearItsEndOnlyWhenItIsStillItsOwn() {
            List<ClaimedNotification> claimed = recorded();
            Instant soon = Instant.now().plusSeconds(5);
            ClaimedNotification email = claimed.get(0).renewedUntil(soon);
            ClaimedNotification push = claimed.get(1).renewedUntil(soon);
            events.update(push.key().eventId(), "PUSH", "claim_token = 'taken-over'");

            ClaimedNotification renewed = ledger.holdClaim(email);
            assertThat(ledger.holdClaim(push)).isNull();
            assertThat((java.sql.Timestamp) events.row(email.key().eventId(), "EMAIL").get("claimed_until"))
                    .isAfter(java.sql.Timestamp.from(Instant.now().plus(LEASE).minusSeconds(10)));
            // the sender goes on with the renewed claim: its deadline comes from there
            assertThat(renewed.claimedUntil()).isAfter(Instant.now().plus(LEASE).minusSeconds(10));
        }

        @Test
        void shouldReleaseAClaimNoSenderTookAsUntried() {
            ClaimedNotification email = recorded().get(0);

            ledger.release(email, Instant.now());

            assertThat(events.row(email.key().eventId(), "EMAIL")).containsEntry("status", "PENDING")
                    .containsEntry("attempts", 0).containsEntry("claim_token", null);
        }
    }

    @Nested
    class Outcomes {

        @Test
        void shouldRecordEachOutcomeWithItsAttempt() {
            List<ClaimedNotification> first = recorded();
            List<ClaimedNotification> second = recorded();
            Instant now = Instant.now();

            ledger.sent(first.get(0), now, "email-primary");
            ledger.failed(first.get(1), "400 unknown token", now, "push-primary");
            ledger.retry(second.get(0), "421 busy", now.plusSeconds(30), now, "email-primary", null);

            assertThat(events.row(first.get(0).key().eventId(), "EMAIL")).containsEntry("status", "SENT");
            assertThat(events.row(first.get(1).key().eventId(), "PUSH")).containsEntry("status", "FAILED")
                    .containsEntry("last_error", "400 unknown token");
            assertThat(events.row(second.get(0).key().eventId(), "EMAIL")).containsEntry("status", "PENDING")
                    .containsEntry("last_error", "421 busy");
            assertThat(db.jdbc().queryForList("SELECT outcome FROM notification_attempts ORDER BY outcome", String.class))
                    .containsExactly("FAILED", "RETRY", "SENT");
            // each under the claim it was made with: two SENT attempts under one claim would be two senders
            assertThat(db.jdbc().queryForList("SELECT claim_token FROM notification_attempts ORDER BY outcome", String.class))
                    .containsExactly(first.get(1).claimToken(), second.get(0).claimToken(), first.get(0).claimToken());
        }

        @Test
        void shouldNotRecordAFailureOverAClaimTakenOver() {
            ClaimedNotification push = recorded().get(1);
            events.update(push.key().eventId(), "PUSH", "claim_token = 'taken-over'");

            assertThat(ledger.failed(push, "503", Instant.now(), "push-primary")).isFalse();

            assertThat(events.row(push.key().eventId(), "PUSH")).containsEntry("status", "SENDING");
        }

        @Test
        void shouldNotLetTheSentOfAClaimTakenOverCountAsTheRows() {
            List<ClaimedNotification> claimed = recorded();
            ClaimedNotification email = claimed.get(0);
            ClaimedNotification push = claimed.get(1);
            events.update(email.key().eventId(), "EMAIL", "claim_token = 'taken-over'");
            Instant now = Instant.now();

            assertThat(ledger.sent(email, now, "email-primary")).as("the claim was still the sender's").isFalse();
            assertThat(ledger.sent(push, now, "push-primary")).isTrue();

            // the row stays its current claim's: that claim's sender decides its outcome
            assertThat(events.row(email.key().eventId(), "EMAIL")).containsEntry("status", "SENDING")
                    .containsEntry("claim_token", "taken-over");
            assertThat(events.row(push.key().eventId(), "PUSH")).containsEntry("status", "SENT");
            // both attempts are history; only the one whose claim was lost says so
            assertThat(db.jdbc().queryForList("SELECT channel || ' ' || outcome || ' ' || claim_lost"
                    + " FROM notification_attempts ORDER BY channel", String.class))
                    .containsExactly("EMAIL SENT true", "PUSH SENT false");
        }
    }

    @Nested
    class RetryPoller {

        @Test
        void shouldClaimDueRowsAndExpiredClaimsWithTheirEvent() {
            UUID due = events.record(Instant.now().minusSeconds(60), "[\"EMAIL\"]", "EMAIL");
            ClaimedNotification crashed = recorded().get(1);
            events.update(crashed.key().eventId(), "PUSH", "claimed_until = ?", Instant.now().minusSeconds(1));

            DeliveryLedger.DueBatch batch = ledger.claimDue(10, List.of("EMAIL", "PUSH"));

            assertThat(batch.found()).isEqualTo(2);
            assertThat(batch.claimed()).extracting(ClaimedNotification::key)
                    .containsExactlyInAnyOrder(new NotificationKey(due, Channel.EMAIL), crashed.key());
            String token = batch.claimed().get(0).claimToken();
            assertThat(batch.claimed()).allSatisfy(c -> {
                assertThat(c.claimToken()).isEqualTo(token).isNotEqualTo(crashed.claimToken());
                assertThat(c.readEvent().eventId()).isEqualTo(c.key().eventId());
            });
            assertThat(events.row(crashed.key().eventId(), "PUSH")).containsEntry("attempts", 2)
                    .containsEntry("claim_token", token);
        }

        @Test
        void shouldNotLetASenderWhoseClaimALaterPollTookOverRenewIt() {
            ClaimedNotification crashed = recorded().get(0);
            events.update(crashed.key().eventId(), "EMAIL", "claimed_until = ?", Instant.now().minusSeconds(1));
            ClaimedNotification first = ledger.claimDue(10, List.of("EMAIL")).claimed().get(0);
            // the first poll's sender is slow: its lease runs out and the next poll (same route, same
            // exchange in the drain loop) takes the row over
            events.update(crashed.key().eventId(), "EMAIL", "claimed_until = ?", Instant.now().minusSeconds(1));
            ClaimedNotification second = ledger.claimDue(10, List.of("EMAIL")).claimed().get(0);

            assertThat(second.claimToken()).isNotEqualTo(first.claimToken());
            assertThat(ledger.holdClaim(first.renewedUntil(Instant.now()))).as("the sender that lost its claim").isNull();
            assertThat(ledger.holdClaim(second.renewedUntil(Instant.now()))).as("the one that holds it now").isNotNull();
            assertThat(events.row(crashed.key().eventId(), "EMAIL")).containsEntry("attempts", 3)
                    .containsEntry("claim_token", second.claimToken());
        }

        @Test
        void shouldEndARowPastItsAttemptsInsteadOfClaimingIt() {
            UUID tired = events.record(Instant.now().minusSeconds(60), "[\"EMAIL\"]", "EMAIL");
            events.update(tired, "EMAIL", "attempts = 3");

            DeliveryLedger.DueBatch batch = ledger.claimDue(10, List.of("EMAIL", "PUSH"));

            assertThat(batch.found()).isEqualTo(1);
            assertThat(batch.claimed()).isEmpty();
            assertThat(events.row(tired, "EMAIL")).containsEntry("status", "FAILED")
                    .containsEntry("last_error", "gave up after 3 attempts (notifier.delivery.max-attempts)");
        }

        @Test
        void shouldHandOnAPayloadThatNoLongerReadsAsUndeliverable() {
            UUID broken = events.record(Instant.now().minusSeconds(60), "[\"EMAIL\"]", "EMAIL");
            events.update(broken, "EMAIL", "payload = '{}'");

            ClaimedNotification claimed = ledger.claimDue(10, List.of("EMAIL", "PUSH")).claimed().get(0);

            assertThat(claimed.event()).isNull();
            assertThat(claimed.unreadable()).startsWith("stored event payload no longer parses");
        }
    }

    /** A new event's two rows, claimed at birth. */
    private List<ClaimedNotification> recorded() {
        return recorded(UUID.randomUUID());
    }

    private List<ClaimedNotification> recorded(UUID eventId) {
        return transactions.execute(status -> rows.insertClaimed(List.of(ContractEvent.event().eventId(eventId).build()),
                List.of(List.of(Channel.EMAIL, Channel.PUSH))));
    }
}
