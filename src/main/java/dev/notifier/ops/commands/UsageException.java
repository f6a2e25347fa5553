package dev.notifier.ops.commands;

/** The command line itself is wrong (unknown option, missing or malformed argument): exit code 2. */
public class UsageException extends Exception {

    public UsageException(String message) {
        super(message);
    }
}
