-- Tracing (dev.notifier.trace, on when OTEL_* configure an exporter): the W3C traceparent of the
-- event's intake span, kept with each notification so a retry's send joins the same trace, and the
-- trace id of each attempt, which `status <eventId>` prints beside it. NULL while tracing is off.
ALTER TABLE notifications ADD COLUMN trace_parent VARCHAR(55);
ALTER TABLE notification_attempts ADD COLUMN trace_id VARCHAR(32);
