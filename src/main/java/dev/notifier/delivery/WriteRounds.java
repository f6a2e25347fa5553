package dev.notifier.delivery;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/** How {@link GroupCommit} runs the writes it has gathered, in the caller's transaction. */
final class WriteRounds {

    private WriteRounds() {
    }

    /**
     * Every write's statements in their order: first each write's first statement, then each one's
     * second, and so on, so a statement always runs after the ones before it in its own write (and may
     * read their counts). Within one round the same SQL runs as one JDBC batch; counts are mapped back
     * to each write.
     */
    static List<int[]> run(JdbcTemplate jdbc, List<GroupCommit.Write> writes) {
        List<int[]> counts = new ArrayList<>(writes.size());
        int rounds = 0;
        for (GroupCommit.Write write : writes) {
            counts.add(new int[write.statements().size()]);
            rounds = Math.max(rounds, write.statements().size());
        }
        for (int s = 0; s < rounds; s++) {
            Map<String, List<Integer>> writesBySql = new LinkedHashMap<>();
            Map<String, List<Object[]>> argsBySql = new LinkedHashMap<>();
            for (int w = 0; w < writes.size(); w++) {
                List<GroupCommit.Statement> statements = writes.get(w).statements();
                if (s < statements.size()) {
                    GroupCommit.Statement statement = statements.get(s);
                    writesBySql.computeIfAbsent(statement.sql(), sql -> new ArrayList<>()).add(w);
                    argsBySql.computeIfAbsent(statement.sql(), sql -> new ArrayList<>()).add(statement.args().apply(counts.get(w)));
                }
            }
            int round = s;
            argsBySql.forEach((sql, args) -> {
                int[] updated = args.size() == 1 ? new int[] {jdbc.update(sql, args.get(0))} : jdbc.batchUpdate(sql, args);
                List<Integer> slots = writesBySql.get(sql);
                for (int i = 0; i < updated.length; i++) {
                    counts.get(slots.get(i))[round] = updated[i];
                }
            });
        }
        return counts;
    }
}
