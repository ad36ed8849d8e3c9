package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.ab.Engine;
import org.perfab.report.testing.Tool;

/**
 * {@code perfab completion}'s scripts read by the real shells: bash and fish complete each of
 * {@link CompletionCommandTest#cases()} as listed there, zsh reads its script and registers it.
 * Skipped where a shell is missing, failed there where CI requires it ({@link Tool}); the scripts'
 * text is {@link CompletionCommandTest}'s.
 */
class CompletionShellsIT {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("org.perfab.cli.CompletionCommandTest#cases")
    void bashOffers(String typed, String offered) throws Exception {
        Tool.BASH.need();
        Files.writeString(dir.resolve("results.json"), "{}");
        Path script = dir.resolve("perfab.bash");
        Files.writeString(script, Cli.run(Engine.REAL, "completion", "bash").out());
        assertEquals("", run("bash", "-n", script.toString()));
        Path driver = dir.resolve("complete.bash");
        Files.writeString(driver, """
                source "$1"
                compopt() { :; }  # a builtin only inside a real completion
                COMP_WORDS=("${@:2}")
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                COMP_LINE="${COMP_WORDS[*]}"
                COMP_POINT=${#COMP_LINE}
                _complete_perfab
                printf '%s\\n' "${COMPREPLY[@]}"
                """);
        List<String> command =
                new ArrayList<>(List.of("bash", "--norc", "--noprofile", driver.toString(), script.toString()));
        command.addAll(Arrays.asList(inDir(typed).split(" ", -1)));
        assertEquals(expected(offered), offeredWords(run(command.toArray(String[]::new))), typed);
    }

    @ParameterizedTest
    @MethodSource("org.perfab.cli.CompletionCommandTest#cases")
    void fishOffers(String typed, String offered) throws Exception {
        Tool.FISH.need();
        Files.writeString(dir.resolve("results.json"), "{}");
        Path script = dir.resolve("perfab.fish");
        Files.writeString(script, Cli.run(Engine.REAL, "completion", "fish").out());
        assertEquals("", run("fish", "--no-config", "--no-execute", script.toString()));
        String out = run(
                "fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script.toString(), inDir(typed));
        // Each line is a word, then a tab and its description.
        assertEquals(
                expected(offered),
                offeredWords(out.lines().map(l -> l.split("\t")[0]).collect(Collectors.joining("\n"))),
                typed);
    }

    @Test
    void zshReadsTheScript() throws Exception {
        Tool.ZSH.need();
        Path script = dir.resolve("perfab.zsh");
        Files.writeString(script, Cli.run(Engine.REAL, "completion", "zsh").out());
        assertEquals("", run("zsh", "-n", script.toString()));
        String registered =
                run("zsh", "-f", "-c", "source $1 && print -r -- $_comps[perfab]", "zsh", script.toString());
        assertTrue(registered.contains("_complete_perfab"), registered);
    }

    /** {@code text} with DIR for the test's folder. */
    private String inDir(String text) {
        return text.replace("DIR", dir.toString());
    }

    /** The words offered, as a sorted set: shells order them their own way. */
    private Set<String> expected(String offered) {
        return new TreeSet<>(Arrays.asList(inDir(offered).split(" ")));
    }

    private static Set<String> offeredWords(String out) {
        return out.lines().map(String::strip).filter(l -> !l.isEmpty()).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Runs {@code command} with stdin empty; returns its standard output, failing on a non-zero exit. */
    private String run(String... command) throws IOException, InterruptedException {
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectError(err.toFile())
                .start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", command));
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + Files.readString(err));
        return new String(out, StandardCharsets.UTF_8);
    }
}
