package dev.notifier.bench;

import dev.notifier.support.TestDatabase;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a paced stream's produce→SENT time goes, notification by notification, from clocks outside
 * the service where there are any: the record's send (the harness), the inbox row's commit and the
 * SENT row's commit (PostgreSQL's commit timestamps, when {@code track_commit_timestamp} is on; else
 * the service's own times just before those commits, {@code created_at} and {@code sent_at}), and
 * the push's arrival at nginx ({@code $msec} in its access log, by Idempotency-Key). All are this
 * machine's wall clock.
 */
final class StageLatency {

    /** One stage's percentiles, in milliseconds, and how many notifications it timed. */
    record Percentiles(long p50, long p99, int timed) {
        @Override
        public String toString() {
            return p50 + "/" + p99;
        }
    }

    private final Map<String, List<Long>> stages = new LinkedHashMap<>();
    final boolean commitTimes;

    private StageLatency(boolean commitTimes) {
        this.commitTimes = commitTimes;
    }

    static boolean commitTimestampsOn(TestDatabase db) {
        return "on".equals(db.jdbc().queryForObject("SHOW track_commit_timestamp", String.class));
    }

    /** The stream's notifications (those whose event is in producedAt), each timed stage by stage. */
    static StageLatency measure(TestDatabase db, Map<String, Long> producedAt, Map<String, Long> pushArrivals) {
        StageLatency latency = new StageLatency(commitTimestampsOn(db));
        String recorded = latency.commitTimes ? "pg_xact_commit_timestamp(i.xmin)" : "n.created_at";
        String outcome = latency.commitTimes ? "pg_xact_commit_timestamp(n.xmin)" : "n.sent_at";
        String sql = "SELECT n.event_id::text, n.channel, " + recorded + ", " + outcome + " FROM notifications n"
                + " JOIN inbox i ON i.message_id = n.event_id::text WHERE n.status = 'SENT'";
        String rec = latency.commitTimes ? "recorded committed" : "recorded (created_at)";
        String sent = latency.commitTimes ? "SENT committed" : "SENT (sent_at)";
        db.jdbc().query(sql, rs -> {
            Long produced = producedAt.get(rs.getString(1));
            Timestamp recordedAt = rs.getTimestamp(3);
            Timestamp sentAt = rs.getTimestamp(4);
            if (produced == null || recordedAt == null || sentAt == null) {
                return;
            }
            long recordedMs = recordedAt.getTime();
            long sentMs = sentAt.getTime();
            latency.add("produce->" + sent, sentMs - produced);
            latency.add("produce->" + rec, recordedMs - produced);
            if ("PUSH".equals(rs.getString(2))) {
                Long arrived = pushArrivals.get(rs.getString(1) + ":PUSH");
                if (arrived != null) {
                    latency.add("push: " + rec + "->at nginx", arrived - recordedMs);
                    latency.add("push: at nginx->" + sent, sentMs - arrived);
                }
            } else {
                latency.add("email: " + rec + "->" + sent, sentMs - recordedMs);
            }
        });
        return latency;
    }

    private void add(String stage, long millis) {
        stages.computeIfAbsent(stage, k -> new ArrayList<>()).add(millis);
    }

    /** Every stage, in the order of the first notification's stages: produce->SENT first. */
    Map<String, Percentiles> percentiles() {
        Map<String, Percentiles> out = new LinkedHashMap<>();
        stages.forEach((stage, values) -> {
            List<Long> sorted = new ArrayList<>(values);
            Collections.sort(sorted);
            out.put(stage, new Percentiles(percentile(sorted, 0.50), percentile(sorted, 0.99), sorted.size()));
        });
        return out;
    }

    /** produce->SENT, every notification of the stream. */
    Percentiles overall() {
        return percentiles().values().iterator().next();
    }

    private static long percentile(List<Long> sorted, double p) {
        return sorted.get((int) Math.round(p * (sorted.size() - 1)));
    }
}
