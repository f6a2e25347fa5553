package dev.notifier.ops.commands;

import dev.notifier.config.ServiceProperties;
import dev.notifier.event.Channel;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * What every operator command shares: {@code --help} (exit 0), a usage error (message and usage on
 * stderr, exit 2), a runtime failure such as a dead database (one line on stderr, exit 1), and the
 * service's own configuration and database, opened only when the command gets that far.
 */
public abstract class OperatorCommand implements Command {

    protected static final int OK = 0;
    protected static final int FAILED = 1;
    private static final int USAGE = 2;

    private final CommandEnvironment environment;
    private final Set<String> flags;
    private final Set<String> valuedOptions;
    private ServiceProperties properties;
    private SingleConnectionDataSource database;

    protected OperatorCommand(CommandEnvironment environment, Set<String> flags, Set<String> valuedOptions) {
        this.environment = environment;
        this.flags = flags;
        this.valuedOptions = valuedOptions;
    }

    /** The synopsis line, then what it does and its options; ends with a newline. */
    protected abstract String usage();

    /** Runs the parsed command; throws {@link UsageException} for a bad value before touching anything. */
    protected abstract int execute(CommandLine line) throws Exception;

    @Override
    public final int run(List<String> args) {
        if (args.contains("--help") || args.contains("-h")) {
            out().print(usage());
            return OK;
        }
        try {
            return execute(CommandLine.parse(args, flags, valuedOptions));
        } catch (UsageException e) {
            err().println(name() + ": " + e.getMessage());
            err().print(usage());
            return USAGE;
        } catch (Exception e) {
            err().println(name() + ": " + oneLine(describe(e)));
            return FAILED;
        } finally {
            close();
        }
    }

    protected PrintStream out() {
        return environment.out();
    }

    protected PrintStream err() {
        return environment.err();
    }

    protected ServiceProperties properties() {
        if (properties == null) {
            properties = ServiceProperties.load(environment.overrides());
        }
        return properties;
    }

    /** A channel named on the command line, in any case, if it is one of notifier.channels. */
    protected Channel channelInUse(String text) {
        List<Channel> inUse = properties().channels().channels();
        try {
            Channel channel = Channel.of(text);
            if (inUse.contains(channel)) {
                return channel;
            }
        } catch (IllegalArgumentException e) {
            // said below, with the channels there are
        }
        throw new IllegalArgumentException("'" + text + "' is not a channel in use ("
                + String.join(", ", inUse.stream().map(Channel::name).toList()) + ")");
    }

    /** The service's database: no migration, no schema guard, one connection for the whole command. */
    protected JdbcTemplate jdbc() {
        if (database == null) {
            ServiceProperties p = properties();
            database = new SingleConnectionDataSource(p.get("notifier.db.url"),
                    p.find("notifier.db.user").orElse(null), p.find("notifier.db.password").orElse(null), true);
        }
        return new JdbcTemplate(database);
    }

    /** One transaction on the command's connection ({@link #jdbc()}), for writes that go together. */
    protected org.springframework.transaction.support.TransactionTemplate transactions() {
        jdbc();
        return new org.springframework.transaction.support.TransactionTemplate(
                new org.springframework.jdbc.datasource.DataSourceTransactionManager(database));
    }

    private static String describe(Exception failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return (failure instanceof CannotGetJdbcConnectionException
                        || failure instanceof org.springframework.transaction.CannotCreateTransactionException
                        ? "cannot connect to the database: "
                        : "database error: ") + sql.getMessage();
            }
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        String outer = failure.getMessage();
        if (outer == null) {
            return message;
        }
        return root == failure || outer.contains(message) ? outer : outer + ": " + message;
    }

    private static String oneLine(String text) {
        return String.valueOf(text).replaceAll("\\s+", " ").strip();
    }

    private void close() {
        if (database != null) {
            database.destroy();
            database = null;
        }
        if (properties != null) {
            properties.close();
            properties = null;
        }
    }
}
