-- An attempt whose claim had been taken over by the time its outcome was recorded: the sender's
-- writes are fenced by its claim token, so that outcome did not become the row's (the row's is its
-- current claim's). The attempt is kept in the history all the same, marked, because it may have
-- reached the provider. A send never outlives its claim (it is cut off a little before the claim
-- ends), so this marks only an outcome that could not be recorded in time, e.g. the database was
-- away for longer than the claim.
ALTER TABLE notification_attempts ADD COLUMN claim_lost BOOLEAN NOT NULL DEFAULT FALSE;
