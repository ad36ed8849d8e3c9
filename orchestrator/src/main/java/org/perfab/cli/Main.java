package org.perfab.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** The entry point of the {@code perfab} command line. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // JGit logs through SLF4J; perfab reports what matters itself, so no provider is bundled.
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
     * {@code ?} and every line that would start a GitHub Actions workflow command ({@code ::} after
     * any indentation) defused by a zero-width space: messages quote file contents, harness output
     * and names a pull request controls.
     */
    static String safe(String message) {
        if (message == null) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        for (String line : message.split("\n", -1)) {
            if (out.length() > 0) {
                out.append('\n');
            }
            line = line.codePoints().map(cp -> cp != '\t' && (Character.isISOControl(cp)
                    || Character.getType(cp) == Character.FORMAT) ? '?' : cp)
                    .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
            String trimmed = line.stripLeading();
            out.append(trimmed.startsWith("::")
                    ? line.substring(0, line.length() - trimmed.length()) + "\u200B" + trimmed
                    : line);
        }
        return out.toString();
    }

    /**
     * Runs perfab with {@code args}, writing to {@code out} and {@code err}, and returns the exit
     * code (see {@link ExitCode}). Never calls {@link System#exit}.
     */
    public static int run(PrintStream out, PrintStream err, String... args) {
        PrintWriter outWriter = new PrintWriter(out, true);
        PrintWriter errWriter = new PrintWriter(err, true);
        CommandLine cli = new CommandLine(new PerfabCommand());
        cli.setOut(outWriter);
        cli.setErr(errWriter);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setExitCodeExceptionMapper(new ExitCode());
        cli.setExecutionExceptionHandler((e, line, parsed) -> failed(e, errWriter));
        cli.setParameterExceptionHandler((e, params) -> {
            errWriter.println("perfab: " + safe(e.getMessage()));
            CommandLine sub = e.getCommandLine();
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
