-- Counts that cost what changed, not the whole table: the status page, the metrics and the inbox size
-- read these small tables instead of count(*) over notifications and inbox (1.3-1.7 s of full scan at
-- 5 M rows, and growing with history). PostgreSQL keeps them itself, in the transaction that changes a
-- row, through statement-level triggers: exact at every commit, whoever writes (the service, the
-- resend and purge commands, an operator's own SQL), nothing for the code to forget.
--
-- Each transaction adds its deltas to one of 64 slots (its transaction id modulo 64), so concurrent
-- transactions do not queue on one hot counter row; a reader sums the slots. Within a statement the
-- slots' rows are locked in (channel, status) order.
CREATE TABLE notification_counts (
    channel VARCHAR(16) NOT NULL,
    status  VARCHAR(16) NOT NULL,
    slot    SMALLINT    NOT NULL,
    n       BIGINT      NOT NULL,
    CONSTRAINT notification_counts_pk PRIMARY KEY (channel, status, slot)
);

CREATE TABLE inbox_counts (
    slot SMALLINT NOT NULL,
    n    BIGINT   NOT NULL,
    CONSTRAINT inbox_counts_pk PRIMARY KEY (slot)
);

CREATE FUNCTION notifier_count_notifications() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    this_slot SMALLINT := (txid_current() % 64)::SMALLINT;
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO notification_counts (channel, status, slot, n)
        SELECT channel, status, this_slot, count(*) FROM new_rows GROUP BY channel, status ORDER BY channel, status
        ON CONFLICT (channel, status, slot) DO UPDATE SET n = notification_counts.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO notification_counts (channel, status, slot, n)
        SELECT channel, status, this_slot, -count(*) FROM old_rows GROUP BY channel, status ORDER BY channel, status
        ON CONFLICT (channel, status, slot) DO UPDATE SET n = notification_counts.n + EXCLUDED.n;
    ELSE
        -- an UPDATE that leaves every status as it was (a claim renewed, a lease taken over) writes nothing
        INSERT INTO notification_counts (channel, status, slot, n)
        SELECT channel, status, this_slot, sum(d) FROM (
            SELECT channel, status, -1 AS d FROM old_rows
            UNION ALL
            SELECT channel, status, 1 AS d FROM new_rows) AS changes
        GROUP BY channel, status HAVING sum(d) <> 0 ORDER BY channel, status
        ON CONFLICT (channel, status, slot) DO UPDATE SET n = notification_counts.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER notifications_counted_insert AFTER INSERT ON notifications
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifier_count_notifications();
CREATE TRIGGER notifications_counted_update AFTER UPDATE ON notifications
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifier_count_notifications();
CREATE TRIGGER notifications_counted_delete AFTER DELETE ON notifications
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notifier_count_notifications();

CREATE FUNCTION notifier_count_inbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    this_slot SMALLINT := (txid_current() % 64)::SMALLINT;
    delta BIGINT;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT count(*) INTO delta FROM new_rows;
    ELSE
        SELECT -count(*) INTO delta FROM old_rows;
    END IF;
    -- the inbox's ON CONFLICT DO NOTHING insert of a duplicate inserts no row: nothing to count
    IF delta <> 0 THEN
        INSERT INTO inbox_counts (slot, n) VALUES (this_slot, delta)
        ON CONFLICT (slot) DO UPDATE SET n = inbox_counts.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER inbox_counted_insert AFTER INSERT ON inbox
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifier_count_inbox();
CREATE TRIGGER inbox_counted_delete AFTER DELETE ON inbox
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notifier_count_inbox();

-- TRUNCATE fires no row trigger: it empties the counts with the table
CREATE FUNCTION notifier_truncate_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'inbox' THEN
        DELETE FROM inbox_counts;
    ELSE
        DELETE FROM notification_counts;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER notifications_counted_truncate AFTER TRUNCATE ON notifications
    FOR EACH STATEMENT EXECUTE FUNCTION notifier_truncate_counts();
CREATE TRIGGER inbox_counted_truncate AFTER TRUNCATE ON inbox
    FOR EACH STATEMENT EXECUTE FUNCTION notifier_truncate_counts();

-- What is there already, counted once. The triggers above exist before this count, and creating
-- them locked both tables against writes until this migration commits: no change is counted twice
-- or missed.
INSERT INTO notification_counts (channel, status, slot, n)
SELECT channel, status, 0, count(*) FROM notifications GROUP BY channel, status;
INSERT INTO inbox_counts (slot, n) SELECT 0, count(*) FROM inbox HAVING count(*) > 0;
