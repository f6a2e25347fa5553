package dev.notifier.faults;

import dev.notifier.processes.RecordingSinks;
import dev.notifier.support.TestDatabase;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The comparison after healing: what went in (the plan) against what came out (rows, the sinks'
 * recorded deliveries, the DLQ). Jepsen-style: sets, not counters.
 */
record Outcome(
        String scenario,
        int validEvents,
        int records,
        int expectedSent,
        int expectedFailed,
        int lost,
        int resends,
        Map<String, Integer> resendCauses,
        /** up to 5 re-sent (event, channel) keys, to look up in the instances' logs */
        List<String> resentSample,
        int unexpectedDeliveries,
        int dlqExpected,
        int dlqActual,
        int dlqMismatches,
        int extraRows,
        double seconds,
        String faults) {

    boolean clean() {
        return lost == 0 && unexpectedDeliveries == 0 && dlqMismatches == 0 && dlqActual == dlqExpected && extraRows == 0;
    }

    static Outcome compare(String scenario, String faults, EventPlan plan, TestDatabase db, RecordingSinks sinks,
                           List<byte[]> dlqValues, double seconds) throws Exception {
        Map<String, Map<String, Object>> rows = new TreeMap<>();
        for (Map<String, Object> row : db.jdbc().queryForList(
                "SELECT event_id, channel, status, attempts, last_error FROM notifications")) {
            rows.put(row.get("event_id") + ":" + row.get("channel"), row);
        }
        Map<String, Long> emails = RecordingSinks.counts(sinks.emailKeys());
        Map<String, Long> pushes = RecordingSinks.counts(sinks.pushKeys());
        Map<String, Long> lines = lineDeliveries(plan, sinks);
        Set<String> delivered = new HashSet<>();
        emails.keySet().forEach(id -> delivered.add(id.substring(1, id.indexOf('.')) + ":EMAIL"));
        delivered.addAll(pushes.keySet());
        delivered.addAll(lines.keySet());

        int lost = 0;
        for (String key : plan.expectedSent) {
            Map<String, Object> row = rows.get(key);
            if (!delivered.contains(key) || row == null || !"SENT".equals(row.get("status"))) {
                lost++;
            }
        }
        for (String key : plan.expectedFailed) {
            Map<String, Object> row = rows.get(key);
            if (row == null || !"FAILED".equals(row.get("status")) || row.get("last_error") == null) {
                lost++;
            }
        }
        // keys that two attempts (two numbers) both recorded SENT under one claim token: two senders held
        // one claim. One attempt recorded twice (its commit's answer lost, written again) is not that.
        Set<String> sentTwiceUnderOneClaim = new HashSet<>(db.jdbc().queryForList(
                "SELECT DISTINCT event_id || ':' || channel FROM notification_attempts WHERE outcome = 'SENT'"
                        + " GROUP BY event_id, channel, claim_token HAVING count(DISTINCT attempt) > 1", String.class));
        Map<String, Integer> causes = new TreeMap<>();
        List<String> sample = new ArrayList<>();
        int resends = 0;
        Map<String, Long> all = merged(emails, pushes);
        all.putAll(lines);
        for (Map.Entry<String, Long> e : all.entrySet()) {
            if (e.getValue() > 1) {
                resends += (int) (e.getValue() - 1);
                Map<String, Object> row = rows.get(e.getKey());
                String channel = e.getKey().substring(e.getKey().indexOf(':') + 1);
                String cause = sentTwiceUnderOneClaim.contains(e.getKey())
                        ? channel + " sent by two senders holding one claim (investigate)"
                        : row != null && ((Number) row.get("attempts")).intValue() > 1
                        ? channel + " re-sent by a later claim with the same key (provider accepted, outcome not recorded in time)"
                        : channel + " re-sent without a second claim (investigate)";
                causes.merge(cause, (int) (e.getValue() - 1), Integer::sum);
                if (sample.size() < 5) {
                    sample.add(e.getKey());
                }
            }
        }
        if (sinks.lineRepeats() > 0) {
            // not re-sends: LINE delivered nothing for them; counted to show the key doing its work
            causes.put("(not counted) LINE requests with an accepted X-Line-Retry-Key, answered 409", sinks.lineRepeats());
        }
        Set<String> expectedAll = new HashSet<>(plan.expectedSent);
        expectedAll.addAll(plan.expectedFailed);
        int unexpected = (int) delivered.stream().filter(k -> !expectedAll.contains(k)).count();
        int extraRows = (int) rows.keySet().stream().filter(k -> !expectedAll.contains(k)).count();
        List<String> expectedDlq = plan.poison.values().stream().map(Outcome::hex).sorted().collect(Collectors.toList());
        List<String> actualDlq = dlqValues.stream().map(Outcome::hex).sorted().collect(Collectors.toList());
        List<String> missing = new ArrayList<>(expectedDlq);
        actualDlq.forEach(missing::remove);
        List<String> surplus = new ArrayList<>(actualDlq);
        expectedDlq.forEach(surplus::remove);
        return new Outcome(scenario, plan.validEvents, plan.records.size(), plan.expectedSent.size(),
                plan.expectedFailed.size(), lost, resends, causes, sample, unexpected, expectedDlq.size(), actualDlq.size(),
                missing.size() + surplus.size(), extraRows, seconds, faults);
    }

    /**
     * LINE's deliveries as {@code id:LINE}, by their X-Line-Retry-Key. A key no planned notification
     * derives (a key that changed between attempts: LINE would have delivered twice) stays as it is
     * and counts as an unexpected delivery.
     */
    private static Map<String, Long> lineDeliveries(EventPlan plan, RecordingSinks sinks) {
        Map<String, String> byKey = new java.util.HashMap<>();
        for (String key : plan.expectedSent) {
            if (key.endsWith(":LINE")) {
                String eventId = key.substring(0, key.indexOf(':'));
                byKey.put(EventPlan.lineRetryKey(eventId), key);
            }
        }
        Map<String, Long> deliveries = new TreeMap<>();
        for (String retryKey : sinks.lineKeys()) {
            deliveries.merge(byKey.getOrDefault(retryKey, "unplanned LINE key " + retryKey), 1L, Long::sum);
        }
        return deliveries;
    }

    /** Email keys are Message-IDs ({@code <id.email@notifier>}); push keys are {@code id:PUSH}. */
    private static Map<String, Long> merged(Map<String, Long> emails, Map<String, Long> pushes) {
        Map<String, Long> all = new TreeMap<>(pushes);
        emails.forEach((id, n) -> all.put(id.substring(1, id.indexOf('.')) + ":EMAIL", n));
        return all;
    }

    private static String hex(byte[] value) {
        return java.util.HexFormat.of().formatHex(digest(value));
    }

    private static byte[] digest(byte[] value) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(value);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
