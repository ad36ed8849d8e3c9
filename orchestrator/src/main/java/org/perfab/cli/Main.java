package org.perfab.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perfab.ab.Engine;
import org.perfab.failure.NearNames;
import org.perfab.report.Untrusted;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/** The entry point of the {@code perfab} command line. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        // JGit logs through SLF4J; perfab reports what matters itself, so no provider is bundled.
        // The JVM's own properties, set once for the libraries, before any session is made.
        if (System.getProperty("slf4j.provider") == null) {
            System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
            System.setProperty("slf4j.internal.verbosity", "WARN");
        }
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(out, err, args));
    }

    /**
     * Returns {@code message} with control characters (an escape sequence, say) replaced by
     * {@code ?} and every line that would start a GitHub Actions workflow command defused
     * ({@link Untrusted#defused}): messages quote file contents, harness output and names a pull
     * request controls.
     */
    static String safe(String message) {
        if (message == null) {
            return "";
        }
        String shown = message.codePoints()
                .map(cp -> cp != '\t'
                                && cp != '\n'
                                && (Character.isISOControl(cp) || Character.getType(cp) == Character.FORMAT)
                        ? '?'
                        : cp)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
        return Untrusted.defused(shown);
    }

    /**
     * Runs perfab with {@code args}, writing to {@code out} and {@code err}, and returns the exit
     * code (see {@link ExitCode}). Never calls {@link System#exit}.
     */
    public static int run(PrintStream out, PrintStream err, String... args) {
        // The top: the one place the real machine's environment is read, to make the session.
        return run(Engine.REAL, System.getenv(), out, err, args);
    }

    /**
     * Runs perfab as {@link #run(PrintStream, PrintStream, String...)} does, its A/Bs taking what
     * they take from the machine from {@code engine} instead (a test's fake one), in the
     * environment {@code env}.
     */
    static int run(Engine engine, Map<String, String> env, PrintStream out, PrintStream err, String... args) {
        PrintWriter outWriter = new PrintWriter(out, true);
        PrintWriter errWriter = new PrintWriter(err, true);
        // The wall clock and the terminal are read here, once, for the session every command takes.
        CommandLine cli = commandLine(new Session(engine, env, Clock.systemUTC(), System.console() != null), args);
        cli.setOut(outWriter);
        cli.setErr(errWriter);
        cli.setExecutionExceptionHandler((e, line, parsed) -> failed(e, errWriter));
        cli.setParameterExceptionHandler((e, params) -> {
            CommandLine sub = e.getCommandLine();
            errWriter.println("perfab: "
                    + safe(mistyped(e).or(() -> OptionValues.refusal(e)).orElse(e.getMessage())));
            errWriter.println("Try '" + sub.getCommandSpec().qualifiedName() + " --help' for usage.");
            return ExitCode.BAD_INPUT;
        });
        int code;
        try {
            code = cli.execute(args);
        } catch (OutOfMemoryError | StackOverflowError e) {
            // picocli hands only exceptions to the handler; an error ends the command here.
            code = failed(e, errWriter);
        }
        outWriter.flush();
        errWriter.flush();
        return code;
    }

    /**
     * Returns perfab's command line as every run parses with it: enum values in any case, footers
     * whose examples are never wrapped ({@link Footer}), and the exit-code table.
     */
    static CommandLine commandLine() {
        // A command line to describe (help, completion), not to run: the real session, made as run's.
        return commandLine(
                new Session(Engine.REAL, System.getenv(), Clock.systemUTC(), System.console() != null),
                PerfabCommand.SUBCOMMANDS);
    }

    /**
     * Returns the command line {@code args} run with: when they start with a subcommand's name (or a
     * former name it keeps as an alias), that subcommand alone below perfab, since building the others
     * takes longer than many runs of it; otherwise every one (for help, a mistyped name's suggestions,
     * and completion, which completes them all).
     */
    static CommandLine commandLine(Session session, String... args) {
        for (Class<?> command : PerfabCommand.SUBCOMMANDS) {
            Command named = command.getAnnotation(Command.class);
            if (args.length > 0
                    && command != CompletionCommand.class
                    && (named.name().equals(args[0]) || List.of(named.aliases()).contains(args[0]))) {
                return commandLine(session, List.of(command));
            }
        }
        return commandLine(session, PerfabCommand.SUBCOMMANDS);
    }

    private static CommandLine commandLine(Session session, List<Class<?>> subcommands) {
        CommandLine cli = new CommandLine(new PerfabCommand(), new Factory(session));
        subcommands.forEach(cli::addSubcommand);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        Map<String, IHelpSectionRenderer> sections = cli.getHelpSectionMap();
        sections.put(UsageMessageSpec.SECTION_KEY_FOOTER, new Footer());
        cli.setHelpSectionMap(sections); // and every subcommand's
        cli.setExitCodeExceptionMapper(new ExitCode());
        cli.setHelpFactory(FormerNames::new); // and every subcommand's
        FormatOption.describe(cli);
        return cli;
    }

    /**
     * Help that lists each command by its name alone: a command's aliases are its former names,
     * which still run but which help does not offer.
     */
    private static final class FormerNames extends Help {
        FormerNames(CommandSpec spec, Help.ColorScheme scheme) {
            super(spec, scheme);
        }

        @Override
        protected List<String> aliases() {
            return super.aliases().subList(0, 1);
        }
    }

    /**
     * Makes the commands, mixins and converters picocli needs: a class whose constructor takes a
     * {@link Session} is given {@code session}, any other is made as picocli makes it.
     */
    private record Factory(Session session) implements IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            Constructor<K> made;
            try {
                made = type.getDeclaredConstructor(Session.class);
            } catch (NoSuchMethodException e) {
                return CommandLine.defaultFactory().create(type);
            }
            return made.newInstance(session);
        }
    }

    /**
     * What to say of a mistyped command or option, with picocli's nearest names: "'compar' is not a
     * perfab command. Did you mean compare?"; empty when the input is wrong some other way.
     */
    private static Optional<String> mistyped(ParameterException e) {
        if (!(e instanceof UnmatchedArgumentException unmatched)
                || unmatched.getUnmatched().isEmpty()) {
            return Optional.empty();
        }
        CommandLine cli = e.getCommandLine();
        String typed = unmatched.getUnmatched().get(0);
        // --alpa=0.1 is the option --alpa: the value is not part of the name.
        String first = typed.startsWith("--") && typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
        // picocli's suggestions are generous (calibrate for frobnicate): keep those a typo away.
        List<String> near = unmatched.getSuggestions().stream()
                .filter(name -> NearNames.near(first, name))
                .sorted(Comparator.comparingInt(name -> NearNames.edits(first, name)))
                .limit(2)
                .toList();
        String guess = near.isEmpty() ? "" : " Did you mean " + String.join(" or ", near) + "?";
        if (first.startsWith("-")) {
            return Optional.of(
                    "unknown option " + first + " for " + cli.getCommandSpec().qualifiedName() + "." + guess);
        }
        if (!cli.getSubcommands().isEmpty()
                && (cli.getParseResult() == null || !cli.getParseResult().hasSubcommand())) {
            return Optional.of(
                    "'" + first + "' is not a " + cli.getCommandSpec().qualifiedName() + " command." + guess);
        }
        return near.isEmpty() ? Optional.empty() : Optional.of(e.getMessage() + "." + guess);
    }

    private static int failed(Throwable e, PrintWriter err) {
        int code = ExitCode.of(e);
        if (code == ExitCode.INTERNAL) {
            err.println("perfab: internal error (please report it): " + e);
            e.printStackTrace(err);
        } else {
            err.println("perfab: " + safe(ExitCode.message(e)));
        }
        return code;
    }
}
