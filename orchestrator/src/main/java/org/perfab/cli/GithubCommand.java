package org.perfab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.failure.BadInputException;
import org.perfab.report.Format;
import org.perfab.report.Message;
import org.perfab.report.Products;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code perfab github}: the job summary, the step's outputs and annotations, for the scripts of
 * perfab's own GitHub workflows and action, which write none of them themselves. The step files
 * are {@link GithubActions}'s, as every {@code --format github} writes them: within the summary's
 * 1 MiB, no output that could end its line, no annotation a quoted value can split.
 */
@Command(
        name = "github",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Publish to a GitHub Actions step what a script has to say in its own words: a paragraph of"
                    + " the job summary, the step's outputs, an annotation. perfab's own reports publish themselves"
                    + " with --format github; these are for the rest (\"the base build failed\"), escaped and bounded"
                    + " the same way. Off GitHub (no $GITHUB_STEP_SUMMARY, no $GITHUB_OUTPUT) the files are left"
                    + " alone."
        },
        subcommands = {GithubCommand.Summary.class, GithubCommand.Outputs.class, GithubCommand.Annotate.class})
final class GithubCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.BAD_INPUT;
    }

    /** {@code perfab github summary}. */
    @Command(
            name = "summary",
            mixinStandardHelpOptions = true,
            description = {
                "Append to the job summary ($GITHUB_STEP_SUMMARY): each -m TEXT as a paragraph of plain"
                        + " text, which marks up, mentions and links nothing and is printed to standard output too, for"
                        + " the log; then each FILE as it is, Markdown perfab rendered (- reads standard input). What"
                        + " does not fit in what is left of the summary's 1 MiB is replaced by a line that says so."
            },
            footer = {
                "",
                "Example:",
                "  perfab github summary -m \"the base is $BASE\"",
                "  perfab github summary -m \"The noise floor on $RUNNER\" plan.md"
            })
    static final class Summary implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        private final Session session;

        @Option(
                names = {"-m", "--message"},
                paramLabel = "TEXT",
                description = "A paragraph of plain text. Repeatable.")
        List<String> messages = new ArrayList<>();

        @Parameters(arity = "0..*", paramLabel = "FILE", description = "Markdown to append as it is.")
        List<Path> files = new ArrayList<>();

        Summary(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() throws IOException {
            if (messages.isEmpty() && files.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "nothing to append: give -m TEXT or a FILE");
            }
            Map<String, String> env = session.env();
            PrintWriter out = spec.commandLine().getOut();
            for (String text : messages) {
                Message m = new Message(Message.Level.NOTICE, "perfab", text);
                out.print(Products.MESSAGE.render(m, Format.TEXT));
                out.flush();
                GithubActions.appendToSummary(
                        env, "the message", Products.MESSAGE.render(m, Format.MARKDOWN), "it is in the log");
            }
            for (Path f : files) {
                String markdown = read(f);
                String name = f.toString().equals("-") ? "standard input" : f.toString();
                GithubActions.appendToSummary(
                        env,
                        name,
                        markdown.endsWith("\n") ? markdown : markdown + "\n",
                        f.toString().equals("-") ? "the log may show it" : "it is in " + f);
            }
            return ExitCode.OK;
        }

        private String read(Path f) throws IOException {
            if (f.toString().equals("-")) {
                InputStream in = System.in;
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            try {
                return Files.readString(f, StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                throw new BadInputException(f + ": no such file");
            } catch (IOException e) {
                throw new BadInputException(f + ": cannot read: " + ExitCode.message(e), e);
            }
        }
    }

    /** {@code perfab github output}. */
    @Command(
            name = "output",
            mixinStandardHelpOptions = true,
            description = {
                "Set the step's outputs ($GITHUB_OUTPUT), NAME=VALUE each. A NAME is letters, digits, -"
                        + " and _; a VALUE that holds a line break or another control character is refused (exit 2),"
                        + " and then none is written."
            },
            footer = {"", "Example:", "  perfab github output measured=true \"first-bad=$commit\""})
    static final class Outputs implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        private final Session session;

        @Parameters(arity = "1..*", paramLabel = "NAME=VALUE", description = "An output and its value.")
        List<String> pairs = new ArrayList<>();

        Outputs(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() {
            Map<String, String> outputs = new LinkedHashMap<>();
            for (String pair : pairs) {
                int at = pair.indexOf('=');
                if (at <= 0) {
                    throw new ParameterException(spec.commandLine(), "'" + pair + "' is not NAME=VALUE");
                }
                outputs.put(pair.substring(0, at), pair.substring(at + 1));
            }
            GithubActions.setOutputs(session.env(), outputs);
            return ExitCode.OK;
        }
    }

    /** {@code perfab github annotate}. */
    @Command(
            name = "annotate",
            mixinStandardHelpOptions = true,
            description = {
                "Print MESSAGE as one annotation (a workflow command: ::error title=TITLE::MESSAGE),"
                        + " escaped so that it stays one, on one line, whatever it quotes."
            },
            footer = {
                "",
                "Example:",
                "  perfab github annotate --level error \"the base '$BASE' is not a commit\"",
                "  perfab github annotate --summary \"no comment: the run was cancelled\""
            })
    static final class Annotate implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        private final Session session;

        @Option(
                names = "--level",
                paramLabel = "LEVEL",
                defaultValue = "notice",
                description = "notice, warning or error (default: notice).")
        Message.Level level;

        @Option(
                names = "--title",
                paramLabel = "TITLE",
                defaultValue = "perfab",
                description = "The annotation's title (default: ${DEFAULT-VALUE}).")
        String title;

        @Option(names = "--summary", description = "Add MESSAGE to the job summary too, as summary -m does.")
        boolean summary;

        @Parameters(arity = "1", paramLabel = "MESSAGE", description = "What to say.")
        String text;

        Annotate(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() {
            if (title.isBlank()) {
                throw new ParameterException(spec.commandLine(), "--title cannot be empty");
            }
            Message m = new Message(level, title, text);
            if (summary) {
                GithubActions.publish(Products.MESSAGE, m, Optional.empty(), session.env());
            }
            Output.print(spec, Products.MESSAGE.render(m, Format.GITHUB), null);
            return ExitCode.OK;
        }
    }
}
