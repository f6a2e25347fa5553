-- Written in the SQL subset PostgreSQL and H2 (MODE=PostgreSQL) share, like V1.

-- The retention purge finds final rows last changed before its cutoff through this index, a batch at
-- a time, instead of scanning the table.
CREATE INDEX notifications_status_updated_idx ON notifications (status, updated_at);
