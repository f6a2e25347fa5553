package dev.notifier.ops.commands;

import java.io.PrintStream;
import java.util.Map;

/**
 * Where a command prints, and the settings that win over the service's configuration. The jar
 * uses the process's own streams and no overrides; tests pass streams they read and a database
 * of their own.
 */
public record CommandEnvironment(PrintStream out, PrintStream err, Map<String, String> overrides) {

    public static CommandEnvironment standard() {
        return new CommandEnvironment(System.out, System.err, Map.of());
    }

    /** For logs and exceptions: which settings are overridden, never their values (passwords among them). */
    @Override
    public String toString() {
        return "CommandEnvironment[overrides=" + new java.util.TreeSet<>(overrides.keySet()) + "]";
    }
}
