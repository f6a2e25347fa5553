-- The least a transaction can do to record the same event as inbox-transaction.sql, for an event
-- that names its two channels: the inbox insert decides "new" by its row count (no look-up before
-- it), and no opt-out query, since explicit channels win over preferences. The reference for a
-- per-event intake that runs only the statements it needs.
\set k random(1, 9000000000000000000)
BEGIN;
INSERT INTO inbox (processor_name, message_id, created_at) VALUES ('record-event', md5(:k::text)::uuid::text, now()) ON CONFLICT DO NOTHING;
INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload, created_at, updated_at, next_attempt_at) VALUES (md5(:k::text)::uuid, 'EMAIL', 'PENDING', 0, 'u-' || :k::text, 'TRX-' || :k::text, :payload, now(), now(), now()) ON CONFLICT DO NOTHING;
INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload, created_at, updated_at, next_attempt_at) VALUES (md5(:k::text)::uuid, 'PUSH', 'PENDING', 0, 'u-' || :k::text, 'TRX-' || :k::text, :payload, now(), now(), now()) ON CONFLICT DO NOTHING;
COMMIT;
