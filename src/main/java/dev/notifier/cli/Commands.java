package dev.notifier.cli;

import dev.notifier.ops.commands.Command;
import dev.notifier.ops.commands.CommandEnvironment;
import dev.notifier.ops.commands.DlqCommand;
import dev.notifier.ops.commands.InboxCommand;
import dev.notifier.ops.commands.PreferencesCommand;
import dev.notifier.ops.commands.ResendCommand;
import dev.notifier.ops.commands.StatusCommand;
import dev.notifier.ops.commands.VerifyCommand;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code java -jar notifier.jar [args]} does: without arguments the service runs (Camel Main);
 * a command's name runs that command; help and version answer and exit; anything else is a usage
 * error that says what was meant, never a service started by a typo.
 */
public final class Commands {

    /** Exit code of a usage error (as the commands' own). */
    public static final int USAGE = 2;
    private static final Set<String> HELP = Set.of("help", "--help", "-h", "-help", "-?");
    private static final Set<String> VERSION = Set.of("version", "--version", "-V", "-version");

    private static final List<Command> ALL = List.of(
            // each command registers here, one line each
            new StatusCommand(CommandEnvironment.standard()),
            new ResendCommand(CommandEnvironment.standard()),
            new DlqCommand(CommandEnvironment.standard()),
            new InboxCommand(CommandEnvironment.standard()),
            new PreferencesCommand(CommandEnvironment.standard()),
            new VerifyCommand(CommandEnvironment.standard())
    );

    private Commands() {
    }

    public static Optional<Command> find(String name) {
        return ALL.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** Runs what the arguments ask for; empty when the service should run (no arguments). */
    public static Optional<Integer> runIfCommand(String[] args) throws Exception {
        return runIfCommand(args, System.out, System.err);
    }

    static Optional<Integer> runIfCommand(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0) {
            return Optional.empty();
        }
        String first = args[0];
        if (HELP.contains(first)) {
            out.print(usage());
            return Optional.of(0);
        }
        if (VERSION.contains(first)) {
            out.println(Version.describe());
            return Optional.of(0);
        }
        if (first.equals("demo")) {
            return Optional.of(DemoLauncher.run(Arrays.asList(args).subList(1, args.length), err));
        }
        Optional<Command> command = find(first);
        if (command.isEmpty()) {
            err.println("notifier: " + notACommand(first));
            err.print(usage());
            return Optional.of(USAGE);
        }
        // a command's stdout is its result; what libraries log goes to stderr (read by logback.xml,
        // so it must be set before anything logs)
        System.setProperty("NOTIFIER_LOG_TARGET", "System.err");
        return Optional.of(command.get().run(Arrays.asList(args).subList(1, args.length)));
    }

    private static String notACommand(String given) {
        String what = given.startsWith("-") ? "unknown option '" + given + "'" : "unknown command '" + given + "'";
        return ALL.stream().map(Command::name).min(Comparator.comparingInt(name -> distance(name, given)))
                .filter(name -> distance(name, given) <= 2)
                .map(name -> what + "; did you mean '" + name + "'?")
                .orElse(what);
    }

    /** Edit distance (Levenshtein) between two short words. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    public static String usage() {
        StringBuilder text = new StringBuilder("""
                usage: java -jar notifier.jar                  run the service (configuration: config/, NOTIFIER_* variables)
                       java -jar notifier.jar <command> [...]  run an operator command (<command> --help for its options)
                       java -jar notifier.jar demo [--help]         the pipeline on embedded parts (needs notifier-demo.jar beside it)
                       java -jar notifier.jar --help | --version

                commands:
                """);
        for (Command c : ALL) {
            text.append(String.format("  %-10s %s%n", c.name(), c.summary()));
        }
        return text.toString();
    }
}
