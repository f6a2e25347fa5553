-- The whole lifecycle of one event with two channels, done naively: each step its own transaction,
-- statement for statement what Notifier runs from intake to SENT (NotificationStates: the inbox
-- transaction writes the rows born claimed; each channel's outcome is one more transaction), so
-- pgbench shows what PostgreSQL alone can do for that work at the service's concurrency. Run by
-- pgbench -M prepared: every :variable is a bind parameter as the JDBC driver sends it. :k is one
-- event; md5 gives a random UUID as eventIds are.
\set k random(1, 9000000000000000000)
-- 1. the inbox transaction (the events name their channels: no opt-out query); rows born SENDING
BEGIN;
INSERT INTO inbox (processor_name, message_id, created_at) VALUES ('record-event', md5(:k::text)::uuid::text, now()) ON CONFLICT DO NOTHING;
INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload, created_at, updated_at, next_attempt_at, claimed_until, claim_token) VALUES (md5(:k::text)::uuid, 'EMAIL', 'SENDING', 1, 'u-' || :k::text, 'TRX-' || :k::text, :payload, now(), now(), now() + interval '5 seconds', now() + interval '60 seconds', 'bench') ON CONFLICT DO NOTHING;
INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload, created_at, updated_at, next_attempt_at, claimed_until, claim_token) VALUES (md5(:k::text)::uuid, 'PUSH', 'SENDING', 1, 'u-' || :k::text, 'TRX-' || :k::text, :payload, now(), now(), now() + interval '5 seconds', now() + interval '60 seconds', 'bench') ON CONFLICT DO NOTHING;
COMMIT;
-- 2. the email's outcome with its attempt history
BEGIN;
UPDATE notifications SET status = 'SENT', sent_at = now(), updated_at = now(), claimed_until = NULL, last_error = NULL WHERE event_id = md5(:k::text)::uuid AND channel = 'EMAIL';
INSERT INTO notification_attempts (event_id, channel, attempt, outcome, error, finished_at, claim_token) VALUES (md5(:k::text)::uuid, 'EMAIL', 1, 'SENT', NULL, now(), 'bench');
COMMIT;
-- 3. the push's outcome with its attempt history
BEGIN;
UPDATE notifications SET status = 'SENT', sent_at = now(), updated_at = now(), claimed_until = NULL, last_error = NULL WHERE event_id = md5(:k::text)::uuid AND channel = 'PUSH';
INSERT INTO notification_attempts (event_id, channel, attempt, outcome, error, finished_at, claim_token) VALUES (md5(:k::text)::uuid, 'PUSH', 1, 'SENT', NULL, now(), 'bench');
COMMIT;
