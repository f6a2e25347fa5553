-- Several providers per channel (the send routes' failover). Each attempt records which provider
-- answered; a notification whose last outcome at a provider is unknown (the request went out, no answer
-- came) is pinned to it: only that provider can recognise the key, so no other may be asked.
ALTER TABLE notification_attempts ADD COLUMN provider VARCHAR(64);
ALTER TABLE notifications ADD COLUMN provider_pin VARCHAR(64);
