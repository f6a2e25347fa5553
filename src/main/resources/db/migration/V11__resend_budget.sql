-- A resend (the operator's resend --failed, once the cause is fixed) starts a fresh budget of
-- attempts and age for the row: notifier.delivery.max-attempts and max-age count from here, not from
-- the row's creation, or a notification that failed because its provider was down for a day would be
-- expired again by the retry poller without a single send. The row keeps its attempts (the contract's
-- "attempts so far") and its created_at; the budget remembers where it starts. Rows never resent have
-- no budget_from (their creation counts) and no attempts before it.
ALTER TABLE notifications ADD COLUMN budget_from TIMESTAMP WITH TIME ZONE;
ALTER TABLE notifications ADD COLUMN budget_attempts INTEGER NOT NULL DEFAULT 0;

-- The resend is in the row's history, as an entry of its own.
ALTER TABLE notification_attempts DROP CONSTRAINT notification_attempts_outcome_ck;
ALTER TABLE notification_attempts ADD CONSTRAINT notification_attempts_outcome_ck
    CHECK (outcome IN ('SENT', 'RETRY', 'FAILED', 'RESENT'));
