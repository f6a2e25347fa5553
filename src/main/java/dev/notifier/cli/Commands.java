package dev.notifier.cli;

import dev.notifier.ops.commands.CommandEnvironment;
import dev.notifier.ops.commands.DlqCommand;
import dev.notifier.ops.commands.InboxCommand;
import dev.notifier.ops.commands.ResendCommand;
import dev.notifier.ops.commands.StatusCommand;
import dev.notifier.ops.commands.VerifyCommand;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The subcommands the jar knows; without one, the jar runs the service. */
public final class Commands {

    private static final List<Command> ALL = List.of(
            // each command registers here, one line each
            new dev.notifier.demo.DemoCommand(),
            new StatusCommand(CommandEnvironment.standard()),
            new ResendCommand(CommandEnvironment.standard()),
            new DlqCommand(CommandEnvironment.standard()),
            new InboxCommand(CommandEnvironment.standard()),
            new VerifyCommand(CommandEnvironment.standard())
    );

    private Commands() {
    }

    public static Optional<Command> find(String name) {
        return ALL.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** Runs {@code args[0]} as a command when it names one; empty when the service should run. */
    public static Optional<Integer> runIfCommand(String[] args) throws Exception {
        if (args.length == 0) {
            return Optional.empty();
        }
        if (args[0].equals("help") || args[0].equals("--help")) {
            System.out.println(usage());
            return Optional.of(0);
        }
        Optional<Command> command = find(args[0]);
        if (command.isEmpty()) {
            return Optional.empty();
        }
        // a command's stdout is its result; what libraries log goes to stderr (read by logback.xml,
        // so it must be set before anything logs)
        System.setProperty("NOTIFIER_LOG_TARGET", "System.err");
        return Optional.of(command.get().run(Arrays.asList(args).subList(1, args.length)));
    }

    public static String usage() {
        StringBuilder text = new StringBuilder("usage: java -jar notifier.jar [command] [--help]\n\n"
                + "Without a command the service runs (Camel Main). Commands:\n");
        for (Command c : ALL) {
            text.append(String.format("  %-10s %s%n", c.name(), c.summary()));
        }
        return text.toString();
    }
}
