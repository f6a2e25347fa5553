package dev.notifier.support;

import dev.notifier.ops.commands.CommandEnvironment;
import dev.notifier.ops.commands.OperatorCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** One in-process run of an operator command: its exit code and what it printed on each stream. */
public record CommandRun(int exitCode, String out, String err) {

    public static CommandRun run(Function<CommandEnvironment, ? extends OperatorCommand> command,
                                 Map<String, String> settings, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandEnvironment environment = new CommandEnvironment(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), settings);
        int exitCode = command.apply(environment).run(List.of(args));
        return new CommandRun(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Settings that point a command at a database nobody listens for. */
    public static Map<String, String> deadDatabase() {
        return Map.of("notifier.db.url", "jdbc:postgresql://127.0.0.1:1/none", "notifier.db.user", TestDatabase.USER);
    }
}
