package dev.notifier.ops.commands;

import java.util.List;

/** One subcommand of {@code java -jar notifier.jar <name> ...}. */
public interface Command {

    String name();

    /** One line for the command list. */
    String summary();

    /** Runs the command; the return value is the process exit code (0 = success). */
    int run(List<String> args) throws Exception;
}
