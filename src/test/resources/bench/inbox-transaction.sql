-- Notifier's per-event inbox transaction for one event with two channels, statement for statement
-- as record-event and Camel's JdbcMessageIdRepository ran it before any tuning: the inbox look-up,
-- the inbox insert, the opt-out query, one notification row per channel. Same tables, same
-- indexes (the Flyway migration). Run by pgbench -M prepared, so every :variable is a bind
-- parameter exactly as the JDBC driver sends it. :k is one event; md5 gives a random UUID as
-- eventIds are.
\set k random(1, 9000000000000000000)
BEGIN;
SELECT COUNT(*) FROM inbox WHERE processor_name = 'record-event' AND message_id = md5(:k::text)::uuid::text;
INSERT INTO inbox (processor_name, message_id, created_at) VALUES ('record-event', md5(:k::text)::uuid::text, now()) ON CONFLICT DO NOTHING;
SELECT channel FROM recipient_preferences WHERE user_id = 'u-' || :k::text AND opted_out = TRUE;
INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload, created_at, updated_at, next_attempt_at) VALUES (md5(:k::text)::uuid, 'EMAIL', 'PENDING', 0, 'u-' || :k::text, 'TRX-' || :k::text, :payload, now(), now(), now()) ON CONFLICT DO NOTHING;
INSERT INTO notifications (event_id, channel, status, attempts, user_id, transfer_id, payload, created_at, updated_at, next_attempt_at) VALUES (md5(:k::text)::uuid, 'PUSH', 'PENDING', 0, 'u-' || :k::text, 'TRX-' || :k::text, :payload, now(), now(), now()) ON CONFLICT DO NOTHING;
COMMIT;
