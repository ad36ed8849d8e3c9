package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.testing.Docs;
import picocli.CommandLine;

/** Every command's {@code --help}: what it says, and that its examples can be copied. */
@Isolated("captures System.err")
class HelpTest {
    /** Returns {@code root} and every command below it, each before its subcommands. */
    static List<CommandLine> commands(CommandLine root) {
        List<CommandLine> all = new ArrayList<>(List.of(root));
        for (int i = 0; i < all.size(); i++) {
            all.addAll(all.get(i).getSubcommands().values());
        }
        return all;
    }

    /** The arguments that print {@code command}'s help: its names below perfab, then --help. */
    static String[] helpOf(CommandLine command) {
        List<String> args = new ArrayList<>(
                Arrays.asList(command.getCommandSpec().qualifiedName().split(" ")));
        args.remove(0);
        args.add("--help");
        return args.toArray(String[]::new);
    }

    /** The lines of {@code command}'s footer printed as written: its examples and tables. */
    static List<String> examples(CommandLine command) {
        return Arrays.stream(command.getCommandSpec().usageMessage().footer())
                .filter(l -> l.startsWith("  "))
                .toList();
    }

    @Test
    void examplesComeOutWholeAt80Columns() {
        // Cli.run prints help at picocli's width, 80 columns, as a terminal of any width gets it.
        int examples = 0;
        for (CommandLine command : commands(Main.commandLine())) {
            Cli run = Cli.run(helpOf(command));
            assertEquals(0, run.exitCode(), run.err());
            List<String> lines = run.out().lines().toList();
            for (String line : examples(command)) {
                assertTrue(
                        lines.contains(line),
                        command.getCommandSpec().qualifiedName() + " prints\n" + line + "\nwhole, on one line:\n"
                                + run.out());
                examples += line.contains("perfab ") ? 1 : 0;
            }
        }
        assertTrue(examples >= 8, "the commands' examples: " + examples);
    }

    @ParameterizedTest
    @ValueSource(ints = {55, 80, 200})
    void examplesComeOutWholeAndProseFitsAtAnyWidth(int width) {
        CommandLine root = Main.commandLine();
        root.setUsageHelpWidth(width);
        for (CommandLine command : commands(root)) {
            String name = command.getCommandSpec().qualifiedName();
            List<String> lines = command.getUsageMessage().lines().toList();
            List<String> examples = examples(command);
            for (String line : examples) {
                assertTrue(lines.contains(line), name + " at " + width + " columns prints whole:\n" + line);
            }
            for (String line : lines) {
                assertTrue(
                        line.length() <= width || examples.contains(line),
                        name + " at " + width + " columns wraps its prose:\n" + line);
                assertFalse(line.endsWith(" "), name + ": a line ends in a space: '" + line + "'");
            }
        }
    }

    @Test
    void everyCommandHasHelpWithoutAWarning() {
        // picocli warns on System.err about a help text it cannot format (an unescaped %).
        PrintStream saved = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            for (String command : new String[] {"ab", "compare", "report", "plan", "runners", "bisect", "demo"}) {
                Cli run = Cli.run(command, "--help");
                assertEquals(0, run.exitCode());
                assertTrue(run.out().startsWith("Usage: perfab " + command), run.out());
                assertTrue(
                        run.out().contains("github")
                                || List.of("demo", "plan", "runners", "bisect").contains(command),
                        "--format lists every format: " + run.out());
            }
            List<CommandLine> all = commands(Main.commandLine());
            assertTrue(all.size() > 12, "every command and subcommand: " + all.size());
            for (CommandLine command : all) {
                String name = command.getCommandSpec().qualifiedName();
                Cli run = Cli.run(helpOf(command));
                assertEquals(0, run.exitCode(), name);
                assertTrue(run.out().startsWith("Usage: " + name), run.out());
                assertEquals("", warnings.toString(StandardCharsets.UTF_8), name);
            }
            Cli top = Cli.run("--help");
            assertEquals(0, top.exitCode());
            assertTrue(top.out().contains("Exit codes:"), top.out());
        } finally {
            System.setErr(saved);
        }
        assertEquals("", warnings.toString(StandardCharsets.UTF_8));
    }

    @Test
    void compareAndSnapshotNameEveryFormatTheyRead() {
        String ids = String.join(
                ", ", Formats.ALL.stream().map(MeasurementFormat::id).toList());
        for (String[] command :
                List.of(new String[] {"compare", "--help"}, new String[] {"baseline", "snapshot", "--help"})) {
            String help = Cli.run(command).out().replaceAll("\\s+", " ");
            assertTrue(help.contains(ids), "--format-in lists every format, in order: " + ids + "\n" + help);
        }
        String compare = Cli.run("compare", "--help").out().replaceAll("\\s+", " ");
        assertTrue(compare.contains("in any format perfab reads"), compare);
        String top = Cli.run("--help").out().replaceAll("\\s+", " ");
        assertFalse(top.contains("(perfab-json)"), "compare reads more than perfab-json: " + top);
    }

    @Test
    void baselineCheckAndTheReadmeSayWhatBudgetAutoGives() throws IOException {
        // What BaselineCheck.Budget.of(benchmark) applies: multiple x max(its own spread, the tier's
        // median), and multiple x the tier's 95th percentile for a benchmark without a spread of its own.
        String help = Cli.run("baseline", "check", "--help").out().replaceAll("\\s+", " ");
        String readme = Docs.text().replace("`", "").replaceAll("\\s+", " ");
        assertTrue(help.contains("(default: 5)"), help);
        assertTrue(readme.contains("(--budget, 5% by default, or auto"), "the README's default budget");
        for (String said : List.of(
                "--budget-multiple",
                "times its own spread",
                "at least that times",
                "tier's median spread",
                "a benchmark the controls lacked",
                "that times the tier's 95th percentile")) {
            assertTrue(help.contains(said), "baseline check --help says " + said + "\n" + help);
            assertTrue(readme.contains(said), "the README says " + said);
        }
    }

    /** An option's former name still works (scripts have it), and help offers only the name. */
    @Test
    void absHelpOffersPresetAndNotItsFormerName() {
        Cli help = Cli.run("ab", "--help");
        assertEquals(0, help.exitCode(), help.err());
        assertTrue(help.out().contains("--preset=KIND"), help.out());
        assertFalse(help.out().contains("--profile"), help.out());
    }

    /** A command's former name still runs it (scripts have it), and help offers only the name. */
    @ParameterizedTest
    @ValueSource(strings = {"merge>runners", "series merge>series import"})
    void aFormerNameRunsTheCommandAndHelpListsOnlyTheName(String rename) {
        String[] was = rename.split(">")[0].split(" ");
        String[] now = rename.split(">")[1].split(" ");
        Cli former = Cli.run(concat(was, "--help"));
        assertEquals(0, former.exitCode(), former.err());
        assertEquals(Cli.run(concat(now, "--help")).out(), former.out(), "the same command, its help by its name");
        assertTrue(
                former.out().replaceAll("\\s+", " ").contains("Formerly 'perfab " + String.join(" ", was) + "'"),
                former.out());
        String[] parent = Arrays.copyOf(now, now.length - 1);
        String list = Cli.run(concat(parent, "--help")).out();
        assertTrue(list.contains("  " + now[now.length - 1] + " "), list);
        assertFalse(
                list.contains(", " + was[was.length - 1]) || list.contains("  " + was[was.length - 1] + " "),
                "help lists a command by its name alone: " + list);
    }

    private static String[] concat(String[] words, String last) {
        String[] all = Arrays.copyOf(words, words.length + 1);
        all[words.length] = last;
        return all;
    }
}
