-- Bounces (routes/read-bounces.camel.yaml): an SMTP relay's 250 means queued, not delivered. A delivery
-- status notification (RFC 3464) read from the bounce mailbox ends an email BOUNCED, after SENT.
ALTER TABLE notifications DROP CONSTRAINT notifications_status_ck;
ALTER TABLE notifications ADD CONSTRAINT notifications_status_ck
    CHECK (status IN ('PENDING', 'SENDING', 'SENT', 'FAILED', 'BOUNCED'));

-- What a DSN said is in the row's history too: BOUNCED (failed), DELAYED, DELIVERED (also relayed,
-- expanded). Their error is the status code and the relay's diagnostic.
ALTER TABLE notification_attempts DROP CONSTRAINT notification_attempts_outcome_ck;
ALTER TABLE notification_attempts ADD CONSTRAINT notification_attempts_outcome_ck
    CHECK (outcome IN ('SENT', 'RETRY', 'FAILED', 'RESENT', 'BOUNCED', 'DELAYED', 'DELIVERED'));

-- The DSNs read, by their own Message-ID: Camel's JDBC idempotent repository, written in the same
-- transaction as what the DSN changed, so a DSN read twice (an IMAP redelivery, a crash before the
-- mailbox was updated, two instances polling one mailbox) changes nothing twice. Kept apart from the
-- events' inbox: its size and retention are the events'.
CREATE TABLE bounce_inbox (
    processor_name VARCHAR(255)             NOT NULL,
    message_id     VARCHAR(1000)            NOT NULL,
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT bounce_inbox_pk PRIMARY KEY (processor_name, message_id)
);
CREATE INDEX bounce_inbox_created_idx ON bounce_inbox (created_at);

-- Addresses that bounced for good (5.x.x): an email to one is FAILED at once, without contacting the
-- relay, for notifier.bounces.suppress-days after the bounce. The address is stored lower-cased (an
-- event's validated email; lower case may lengthen a non-ASCII one, hence the width).
CREATE TABLE email_suppressions (
    address    VARCHAR(1000)            NOT NULL,
    status     VARCHAR(16)              NOT NULL,
    diagnostic VARCHAR(300),
    bounced_at TIMESTAMP WITH TIME ZONE NOT NULL,
    event_id   UUID                     NOT NULL,
    CONSTRAINT email_suppressions_pk PRIMARY KEY (address)
);
