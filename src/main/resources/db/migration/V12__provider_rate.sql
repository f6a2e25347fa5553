-- A provider's rate for the whole deployment (NOTIFIER_SMTP_RATE, NOTIFIER_PUSH_RATE, NOTIFIER_LINE_RATE):
-- one row per rate-limited provider, the 100-ms slot by the database's clock and the sends granted in
-- it so far. Every instance takes its permits here (dev.notifier.delivery.provider.SharedRate), so the
-- rate holds however many instances run, and whoever joins or leaves.
CREATE TABLE provider_rate (
    provider VARCHAR(64) PRIMARY KEY,
    slot     BIGINT  NOT NULL,
    used     INTEGER NOT NULL
);
