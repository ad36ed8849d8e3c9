package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** {@code --format}: one declaration, each command's formats in its help, a wrong one refused before anything runs. */
class FormatOptionTest {
    @TempDir
    Path tmp;

    @Test
    void everyCommandsFormatIsTheOneOptionWithItsOwnFormats() {
        List<String> commands = new ArrayList<>();
        for (CommandLine command : Completion.commands(Main.commandLine())) {
            OptionSpec format = command.getCommandSpec().findOption(FormatOption.NAME);
            if (format != null) {
                String name = command.getCommandSpec().qualifiedName();
                commands.add(name.substring("perfab ".length()));
                assertTrue(
                        format.description()[0].startsWith("What to print: text, json"),
                        name + ": " + format.description()[0]);
                assertTrue(
                        command.getCommandSpec().mixins().values().stream()
                                .anyMatch(m -> m.userObject() instanceof FormatOption<?>),
                        name + " mixes the option in");
            }
        }
        assertTrue(
                commands.containsAll(List.of(
                        "ab",
                        "compare",
                        "report",
                        "runners",
                        "bisect",
                        "plan",
                        "demo",
                        "series record",
                        "series check",
                        "series replay",
                        "series demo",
                        "baseline seed",
                        "baseline check",
                        "baseline diff",
                        "baseline floor")),
                commands.toString());
    }

    @Test
    void aFormatTheCommandDoesNotWriteIsRefusedBeforeItWritesAnything() throws IOException {
        Path ratios = tmp.resolve("ratios.csv");
        Files.writeString(ratios, "key,ratio\nBench/a,1.5\n");
        Path series = tmp.resolve("series.csv");
        Cli run = Cli.run(
                "series",
                "record",
                "--series",
                series.toString(),
                "--ratios",
                ratios.toString(),
                "--date",
                "2026-09-01",
                "--run",
                "r1",
                "--format",
                "html");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .startsWith("perfab: --format: perfab series check writes text, json, markdown, github"
                                + " or csv, not html"),
                run.err());
        assertFalse(Files.exists(series), "nothing recorded");
        Cli record = Cli.run(
                "series",
                "record",
                "--series",
                series.toString(),
                "--ratios",
                ratios.toString(),
                "--date",
                "2026-09-01",
                "--run",
                "r1",
                "--format",
                "CSV");
        assertEquals(0, record.exitCode(), record.err());
        assertTrue(record.out().startsWith("key,new,rule,ratio"), "any case: " + record.out());
    }
}
