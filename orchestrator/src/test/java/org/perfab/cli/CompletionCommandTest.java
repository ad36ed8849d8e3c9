package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;
import org.perfab.ingest.Formats;
import org.perfab.ingest.MeasurementFormat;
import org.perfab.report.Format;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** {@code perfab completion}: each shell's script, as text; {@link CompletionShellsIT} has the shells read them. */
class CompletionCommandTest {
    @Test
    void completesEveryCommandInEveryShell() {
        Cli bash = Cli.run("completion", "bash");
        assertEquals(0, bash.exitCode(), bash.err());
        assertTrue(bash.out().contains("complete -F _complete_perfab"), bash.out());
        for (String command : List.of("ab", "compare", "report", "series", "baseline", "bisect", "calibrate")) {
            assertTrue(bash.out().contains(" " + command), command);
        }
        assertTrue(bash.out().contains("--coherence-tolerance"), "options of subcommands too");
        Cli zsh = Cli.run("completion", "zsh");
        assertTrue(zsh.out().startsWith("autoload -U +X compinit && compinit\nautoload -U +X bashcompinit"), zsh.out());
        assertTrue(zsh.out().endsWith(bash.out()), "zsh runs the bash script");
        assertEquals(2, Cli.run("completion", "tcsh").exitCode());
    }

    @Test
    void theFishScriptCompletesCommandsOptionsValuesAndFiles() {
        // Read as text, so that it is checked where fish is not installed too.
        Cli fish = Cli.run("completion", "fish");
        assertEquals(0, fish.exitCode(), fish.err());
        String script = fish.out();
        String formats = Formats.ALL.stream().map(MeasurementFormat::id).collect(Collectors.joining(" "));
        for (String line : List.of(
                "complete -c perfab -f",
                "complete -c perfab -n '__perfab_is \"perfab\"' -a 'baseline' -d 'A ratchet baseline: per machine key"
                        + " and architecture, a floor for each benchmark, kept as a ratio to one anchor benchmark of the"
                        + " same run'",
                "complete -c perfab -n '__perfab_is \"perfab baseline\"' -a 'check' -d",
                "complete -c perfab -n '__perfab_is \"perfab compare\"' -l 'format-in' -x -a '" + formats + "' -d 'The"
                        + " format of the input files",
                "complete -c perfab -n '__perfab_is \"perfab compare\"' -l 'format' -x -a 'text json markdown github"
                        + " html csv junit' -d",
                "complete -c perfab -n '__perfab_is \"perfab compare\"' -s 'o' -l 'output' -r -F -d",
                "complete -c perfab -n '__perfab_is \"perfab compare\"' -F\n",
                "complete -c perfab -n '__perfab_is \"perfab calibrate\"' -l 'noise' -x -a 'normal lognormal outliers"
                        + " heavy_tail heavy_tail_10 partial partial_exact split drift layout' -d",
                "complete -c perfab -n '__perfab_is \"perfab baseline check\"' -l 'fail-on' -x -a 'regressed missing"
                        + " new' -d",
                "complete -c perfab -n '__perfab_is \"perfab baseline seed\"' -l 'coherence-tolerance' -x -d",
                "complete -c perfab -n '__perfab_is \"perfab demo\"' -l 'pin' -l 'no-pin' -d",
                "complete -c perfab -n '__perfab_is \"perfab ab\"' -l 'repo' -x -a '(__fish_complete_directories)' -d",
                "complete -c perfab -n '__perfab_is \"perfab completion\"' -a 'bash zsh fish'\n",
                "if contains -- \"$command $word\" 'perfab ab' 'perfab compare'")) {
            assertTrue(script.contains(line), "the fish script has\n" + line + "\n" + script);
        }
        assertTrue(script.contains("'perfab completion' 'perfab series record'"), "subcommands in the command finder");
        assertTrue(script.contains("__perfab_is \"perfab report\"' -F"), "a results file after report");
        assertFalse(script.contains("%%") || script.contains("${"), "descriptions as help prints them");
    }

    @Test
    void everyListedValueIsOneTheOptionTakesInLowerCase() throws Exception {
        int enums = 0;
        for (CommandLine command : Completion.commands(Completion.typed(Main.commandLine()))) {
            for (OptionSpec o : command.getCommandSpec().options()) {
                List<String> values = o.completionCandidates() == null
                        ? List.of()
                        : StreamSupport.stream(o.completionCandidates().spliterator(), false)
                                .toList();
                Class<?> type = o.auxiliaryTypes()[0];
                String name = command.getCommandSpec().qualifiedName() + " " + o.longestName();
                assertFalse(type.isEnum() && values.isEmpty(), name + " lists its values");
                for (String v : values) {
                    assertEquals(v.toLowerCase(Locale.ROOT), v, name + " offers what users type");
                    if (o.longestName().equals(FormatOption.NAME)) {
                        assertTrue(Format.byId(v).isPresent(), name + " takes " + v);
                    } else if (o.converters().length > 0) {
                        o.converters()[0].convert(v);
                    } else if (type.isEnum()) {
                        assertTrue(
                                Arrays.stream(type.getEnumConstants())
                                        .anyMatch(c -> ((Enum<?>) c).name().equalsIgnoreCase(v)),
                                name + " takes " + v);
                    }
                }
                enums += type.isEnum() || o.longestName().equals(FormatOption.NAME) ? 1 : 0;
            }
        }
        assertTrue(enums >= 15, "options whose values are an enum's: " + enums);
    }

    /** A command line typed so far, and the words a shell must offer for its last word ({@link CompletionShellsIT}). */
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "perfab compare --format-in ",
                        Formats.ALL.stream().map(MeasurementFormat::id).collect(Collectors.joining(" "))),
                Arguments.of("perfab compare --format-in g", "go google-benchmark"),
                Arguments.of("perfab compare --format ", "text json markdown github html csv junit"),
                Arguments.of("perfab runners --format ", "text json markdown csv"),
                Arguments.of("perfab baseline check --format ", "text json markdown github csv"),
                Arguments.of("perfab ab --preset ", "pr release"),
                Arguments.of("perfab ab --pr", "--preset"),
                Arguments.of("perfab calibrate --noise heavy", "heavy_tail heavy_tail_10"),
                Arguments.of("perfab baseline check --fail-on ", "regressed missing new"),
                Arguments.of("perfab baseline snapshot --format-in c", "criterion catch2 csv"),
                Arguments.of("perfab compare --fail-on ", "regression inconclusive"),
                Arguments.of("perfab completion ", "bash zsh fish"),
                Arguments.of("perfab baseline ch", "check"),
                Arguments.of("perfab series check --ser", "--series"),
                Arguments.of("perfab report DIR/res", "DIR/results.json"));
    }
}
