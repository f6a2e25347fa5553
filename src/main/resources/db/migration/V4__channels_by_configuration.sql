-- Channels are configuration (notifier.channels), not an enumeration in the schema: adding one must
-- not take a migration. A channel column holds a channel's name, whatever channels exist: upper-case
-- letters, digits and '_', starting with a letter, at most 16 (the column's width).
-- UNIQUE (event_id, channel) stays exactly as it is: the unit of a notification.
ALTER TABLE notifications DROP CONSTRAINT notifications_channel_ck;
ALTER TABLE notifications ADD CONSTRAINT notifications_channel_ck CHECK (channel ~ '^[A-Z][A-Z0-9_]{0,15}$');
ALTER TABLE recipient_preferences DROP CONSTRAINT recipient_preferences_channel_ck;
ALTER TABLE recipient_preferences ADD CONSTRAINT recipient_preferences_channel_ck CHECK (channel ~ '^[A-Z][A-Z0-9_]{0,15}$');
