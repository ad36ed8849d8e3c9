package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.testing.Comparisons;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/** Hard cases of {@code perfab ab}: relative folders, hostile output, units that change, links. */
class AbHardCasesIT {
    @TempDir
    Path tmp;

    private static JsonNode results(Path out) throws IOException {
        return new ObjectMapper().readTree(out.resolve("results.json").toFile());
    }

    @Test
    void aRelativeOutFolderWorks() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Path relative = Path.of("target", "relative-out-" + System.nanoTime());
        try {
            Cli run = Cli.abOnThisMachine(g.dir(), relative);
            assertEquals(0, run.exitCode(), run.err());
            assertEquals(
                    "regression",
                    results(relative).get("comparisons").get(0).get("verdict").asText());
        } finally {
            try (var walk = Files.walk(relative)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void aValueOutOfRangeFailsTheTrialNotTheRun() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        g.git("checkout", "-q", "feature");
        g.script(
                "bench.sh",
                "#!/bin/sh\necho '{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\":"
                        + " \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": 1e400}]}' > \"$PERFAB_RESULT\"\n");
        g.commit("a harness that overflows");
        g.git("checkout", "-q", "main");
        Path out = tmp.resolve("out");
        Cli run = Cli.abOnThisMachine(g.dir(), out);
        assertEquals(3, run.exitCode(), "every trial failed, and the run says so: " + run.err());
        JsonNode first = results(out).get("trials").get(0);
        assertEquals("failed", first.get("status").asText());
        assertTrue(first.get("reason").asText().contains("1e400 is out of range"), first.toString());
    }

    @Test
    void aPullRequestThatRenamesEveryCellSaysNothingWasCompared() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("name.txt", "old\n");
        g.script("bench.sh", """
                #!/bin/sh
                printf '{"schema": "perfab/measurements/v1", "measurements": [{"cell": "%s", "metric": "t",\
                 "unit": "us", "value": %s}]}' "$(cat "$PERFAB_SIDE_DIR/name.txt")" $(( 100 + PERFAB_TRIAL )) \
                 > "$PERFAB_RESULT"
                """);
        g.write("perfab.yaml", "name: renamed\ntrials: 3\nwarmup: 0\nadaptive: off\nharness:\n  run: [sh, bench.sh]\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("name.txt", "new\n");
        g.commit("rename the benchmark");
        Path out = tmp.resolve("out");
        Cli run = Cli.abOnThisMachine(g.dir(), out);
        assertEquals(0, run.exitCode(), "every trial worked; the report says what came of it: " + run.err());
        String said = "no comparison: no cell was measured on both sides (1 only on the baseline, 1 only on the"
                + " candidate), so nothing was compared";
        assertTrue(run.err().contains("perfab: warning: " + said), run.err());
        assertTrue(run.out().startsWith("FAILED: " + said), run.out());
        assertTrue(
                Files.readString(out.resolve("comment.md")).contains("### perfab · renamed: \u274C " + said),
                Files.readString(out.resolve("comment.md")));
    }

    @Test
    void convertsAUnitThePullRequestChangedAndWarnsOfOneThatCannotConvert() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write("unit.txt", "us 100\n");
        g.script("bench.sh", """
                #!/bin/sh
                set -- $(cat "$PERFAB_SIDE_DIR/unit.txt")
                printf '{"schema": "perfab/measurements/v1", "measurements": [' > "$PERFAB_RESULT"
                printf '{"cell": "a", "metric": "t", "unit": "%s", "value": %s},' "$1" $(( $2 + PERFAB_TRIAL )) >> "$PERFAB_RESULT"
                printf '{"cell": "b", "metric": "size", "unit": "%s", "value": 5}]}' "$3" >> "$PERFAB_RESULT"
                """);
        g.write("unit.txt", "us 100 KiB\n");
        g.write("perfab.yaml", "name: units\ntrials: 3\nwarmup: 0\nadaptive: off\nharness:\n  run: [sh, bench.sh]\n");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("unit.txt", "ns 100000 ms\n");
        g.commit("report in ns");
        Path out = tmp.resolve("out");
        Cli run = Cli.abOnThisMachine(g.dir(), out);
        assertEquals(0, run.exitCode(), run.err());
        JsonNode r = results(out);
        JsonNode a = Comparisons.of(r).get("a:t");
        assertEquals("us", a.get("unit").asText());
        assertEquals(100.001, a.at("/head/mean").asDouble(), 1e-9, "head's ns converted to us");
        assertTrue(
                run.out()
                        .contains("WARNING: 3 values of cell 'b' (size) in unit 'ms' were left out: the cell is in"
                                + " unit 'KiB', and the two do not convert."),
                run.out());
        // The report's plots show the head's converted values too (once, none of the head's were drawn).
        String html = Files.readString(out.resolve("report.html"));
        // Every counted trial is drawn: 3 a side, and more where a busy machine spoiled one and it was
        // replaced (the replaced trial is drawn too).
        int base = 0;
        int head = 0;
        for (JsonNode t : r.get("trials")) {
            if (!t.get("warmup").asBoolean() && t.get("status").asText().equals("ok")) {
                base += t.get("side").asText().equals("base") ? 1 : 0;
                head += t.get("side").asText().equals("head") ? 1 : 0;
            }
        }
        assertTrue(base >= 3 && head >= 3, r.get("trials").toString());
        assertEquals(head, html.split("class=\"pt head\"", -1).length - 1, "the head's trials of cell a");
        assertEquals(2 * base, html.split("class=\"pt base\"", -1).length - 1, "the base's trials of cells a and b");
    }

    @Test
    void aCommittedLinkIsNotABuildOutput() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 2, "");
        Files.createSymbolicLink(g.dir().resolve("latest"), Path.of("level.txt"));
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("level.txt", "120\n");
        g.commit("change");
        Path out = tmp.resolve("out");
        Cli run = Cli.abOnThisMachine(g.dir(), out);
        assertEquals(0, run.exitCode(), run.err());
        assertFalse(run.out().contains("byte-identical"), run.out());
    }

    @Test
    void noLineOfOutputCanBeAWorkflowCommand() throws IOException {
        Path base = tmp.resolve("base.json");
        Path head = tmp.resolve("head.json");
        String cell = "{\"cell\": \"::warning::owned\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": %s}";
        Files.writeString(
                base,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [" + String.format(cell, "1") + ","
                        + String.format(cell, "2") + "]}");
        Files.writeString(
                head, "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [" + String.format(cell, "1") + "]}");
        Cli run = Cli.run(Engine.REAL, "compare", base.toString(), head.toString());
        for (String line : (run.out() + run.err()).split("\n")) {
            assertFalse(line.strip().startsWith("::"), line);
        }
        Files.writeString(
                head,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\","
                        + " \"metric\": \"t\", \"direction\": \"lower\\n::error::owned\", \"value\": 1}]}");
        Cli bad = Cli.run(Engine.REAL, "compare", base.toString(), head.toString());
        assertEquals(2, bad.exitCode());
        for (String line : bad.err().split("\n")) {
            assertFalse(line.strip().startsWith("::"), line);
        }
        assertEquals(
                List.of("a", "  \u200B::x", "b"),
                List.of(Main.safe("a\n  ::x\nb").split("\n")));
    }

    @Test
    void aCrissCrossMergeIsSaid() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 2, "");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("notes/feature.txt", "f\n");
        String b2 = g.commit("feature work");
        g.git("checkout", "-q", "main");
        g.write("notes/main.txt", "m\n");
        String b1 = g.commit("main work");
        g.git("merge", "-q", "--no-ff", "-m", "main takes feature", "feature");
        g.git("checkout", "-q", "feature");
        g.git("merge", "-q", "--no-ff", "-m", "feature takes main's work", b1);
        g.write("level.txt", "110\n");
        g.commit("the change");
        Path out = tmp.resolve("out");
        Cli run = Cli.abOnThisMachine(g.dir(), out);
        assertEquals(0, run.exitCode(), run.err());
        JsonNode warning = null;
        for (JsonNode w : results(out).get("warnings")) {
            if (w.get("kind").asText().equals("several-merge-bases")) {
                warning = w;
            }
        }
        assertTrue(warning != null, results(out).get("warnings").toString());
        List<String> subjects = new ArrayList<>();
        warning.get("subjects").forEach(x -> subjects.add(x.asText()));
        assertEquals(2, subjects.size(), subjects.toString());
        assertTrue(
                subjects.contains(b1.substring(0, 12)) && subjects.contains(b2.substring(0, 12)), subjects.toString());
        assertTrue(run.out().contains("merge-bases (a criss-cross merge"), run.out());
        assertTrue(run.err().contains("criss-cross"), run.err());
    }
}
