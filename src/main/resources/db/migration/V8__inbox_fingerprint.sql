-- What the first record of each event said (dev.notifier.inbox.Fingerprint: a tag and a keyed hash
-- per field, never the values), so that the same eventId with other content is told apart from a
-- plain duplicate: a conflict, dead-lettered, while the first record stands. NULL for the keys
-- recorded before this column: their duplicates can only be taken as plain duplicates.
ALTER TABLE inbox ADD COLUMN fingerprint BYTEA;
