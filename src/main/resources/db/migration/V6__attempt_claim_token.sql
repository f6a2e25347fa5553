-- Which claim each attempt was made under. A row's attempts each run under their own claim (a new
-- token per claim: the intake's insert, each poll of the retry poller), so two attempts that both
-- recorded SENT under one token mean two senders held the same claim at once, a fencing bug, while
-- under two tokens they are the documented window (the first outcome came after its claim had been
-- taken over). The fault suite tells the two apart by this column. Nullable, no default: adding it
-- rewrites nothing, whatever the table's size; rows from before it have none.
ALTER TABLE notification_attempts ADD COLUMN claim_token VARCHAR(64);
