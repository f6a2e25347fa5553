package dev.notifier.ops.commands;

import java.time.DateTimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A command's arguments, parsed against the options it knows: flags ({@code --failed}), options
 * with a value ({@code --limit 10} or {@code --limit=10}) and positional words. Anything it does
 * not know is a {@link UsageException}, never silently ignored.
 */
public final class CommandLine {

    private final Set<String> flags = new HashSet<>();
    private final Map<String, String> values = new HashMap<>();
    private final List<String> positionals = new ArrayList<>();

    private CommandLine() {
    }

    /**
     * @param knownFlags  options without a value
     * @param knownValued options that take a value
     */
    public static CommandLine parse(List<String> args, Set<String> knownFlags, Set<String> knownValued)
            throws UsageException {
        CommandLine line = new CommandLine();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("-") || arg.equals("-")) {
                line.positionals.add(arg);
                continue;
            }
            int equals = arg.indexOf('=');
            String name = equals < 0 ? arg : arg.substring(0, equals);
            if (knownFlags.contains(name)) {
                if (equals >= 0) {
                    throw new UsageException(name + " takes no value");
                }
                line.flags.add(name);
            } else if (knownValued.contains(name)) {
                String value = equals >= 0 ? arg.substring(equals + 1) : i + 1 < args.size() ? args.get(++i) : null;
                if (value == null || value.isBlank()) {
                    throw new UsageException(name + " needs a value");
                }
                if (line.values.put(name, value) != null) {
                    throw new UsageException(name + " given twice");
                }
            } else {
                throw new UsageException("unknown option " + arg);
            }
        }
        return line;
    }

    public boolean flag(String name) {
        return flags.contains(name);
    }

    /** The option's value converted by {@code parser}; what the parser rejects is a usage error. */
    public <T> Optional<T> value(String name, Function<String, T> parser) throws UsageException {
        String text = values.get(name);
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(parser.apply(text.strip()));
        } catch (IllegalArgumentException | DateTimeException e) {
            throw new UsageException(name + ": " + e.getMessage());
        }
    }

    public <T> T required(String name, Function<String, T> parser) throws UsageException {
        return value(name, parser).orElseThrow(() -> new UsageException(name + " is required"));
    }

    /** Exactly one positional argument, described as {@code what} in the error. */
    public String single(String what) throws UsageException {
        if (positionals.isEmpty()) {
            throw new UsageException("missing " + what);
        }
        expectAtMost(1);
        return positionals.get(0);
    }

    /** Exactly the given subcommand word. */
    public void subcommand(String name) throws UsageException {
        String given = single("subcommand (" + name + ")");
        if (!given.equals(name)) {
            throw new UsageException("unknown subcommand '" + given + "'");
        }
    }

    public void noPositionals() throws UsageException {
        expectAtMost(0);
    }

    private void expectAtMost(int count) throws UsageException {
        if (positionals.size() > count) {
            throw new UsageException("unexpected argument '" + positionals.get(count) + "'");
        }
    }
}
