package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.testing.Comparisons;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;
import org.perfab.testing.StartsProcesses;

/**
 * Submodules as a build needs them: a clone without its submodules (what {@code actions/checkout}
 * gives by default) still gets a verdict when the workload does not need them, each left out of both
 * sides alike and named; a workload that needs one says which and how; a submodule whose commit
 * moved between the sides is named as part of the change.
 */
@StartsProcesses
class SubmodulesTest {
    private static final String HARNESS =
            "#!/bin/sh\n# the side's own cost, and whether its vendored library is there\n";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** Each trial reports the side's {@code cost.txt}, with 1% of jitter by trial, and notes whether the library was there. */
    private final List<Boolean> libraryThere = new ArrayList<>();

    private FakeEngine engine() {
        return new FakeEngine().script(HARNESS, c -> {
            double cost = Double.parseDouble(
                    Files.readString(c.dir().resolve("cost.txt")).strip());
            int trial = Integer.parseInt(c.env().get("PERFAB_TRIAL"));
            synchronized (libraryThere) {
                libraryThere.add(Files.exists(c.dir().resolve("vendor/lib/lib.txt")));
            }
            Files.writeString(
                    Path.of(c.env().get("PERFAB_RESULT")),
                    "{\"schema\": \"perfab/measurements/v1\","
                            + " \"measurements\": [{\"cell\": \"encode\", \"metric\": \"time\", \"unit\": \"ns\", \"value\": "
                            + cost * (1 + 0.01 * (trial % 3 - 1)) + "}]}");
            return FakeEngine.ok(0.1);
        });
    }

    /** A repository with a submodule at vendor/lib, whose head makes its own code 10% slower. */
    private GitFixture repo(String extra) throws IOException {
        GitFixture lib = GitFixture.init(tmp.resolve("lib"));
        lib.write("lib.txt", "library\n");
        lib.commit("lib");
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.script("bench.sh", HARNESS);
        g.write("cost.txt", "1000\n");
        g.write(
                "perfab.yaml",
                "name: vendored\ntrials: 4\nwarmup: 0\nadaptive: off\nharness:\n  run: [sh, bench.sh]\n" + extra);
        g.git(
                "-c",
                "protocol.file.allow=always",
                "submodule",
                "add",
                "-q",
                lib.dir().toString(),
                "vendor/lib");
        g.commit("initial, with a vendored library");
        g.git("checkout", "-q", "-b", "feature");
        g.write("cost.txt", "1100\n");
        g.commit("10% slower");
        g.git("checkout", "-q", "main");
        return g;
    }

    /** Returns a clone of {@code g} without its submodules, as a CI checkout makes by default. */
    private Path cloneWithoutSubmodules(GitFixture g) throws IOException {
        Path clone = tmp.resolve("clone");
        g.run(tmp, "clone", "-q", "--no-recurse-submodules", g.dir().toString(), clone.toString());
        g.run(clone, "branch", "-q", "feature", "origin/feature");
        return clone;
    }

    @Test
    void aSubmoduleTheCloneHasNotCheckedOutIsLeftOutOfBothSidesAndNamed() throws IOException {
        Path clone = cloneWithoutSubmodules(repo(""));
        Path out = tmp.resolve("out");
        Cli run = Cli.ab(engine().engine(), clone, out);
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("left out of both sides' trees, as the clone has not checked them out and the"
                                + " workload does not need them: submodule vendor/lib"),
                run.err());
        JsonNode results = JSON.readTree(out.resolve("results.json").toFile());
        JsonNode encode = Comparisons.of(results).get("encode:time");
        assertEquals("regression", encode.get("verdict").asText(), "each side's own code: " + encode);
        assertEquals(10.0, encode.get("pctChange").asDouble(), 0.5);
        JsonNode left = Comparisons.warning(results, "submodules-left-out");
        assertTrue(left != null && left.get("subjects").toString().equals("[\"vendor/lib\"]"), results.toString());
        assertTrue(libraryThere.stream().noneMatch(b -> b), "neither side had the library: " + libraryThere);
        try (Stream<Path> trees = Files.walk(out.resolve("work"), 5)) {
            List<Path> folders = trees.filter(p -> p.endsWith("vendor/lib")).toList();
            assertEquals(2, folders.size(), "an empty folder in its place on each side: " + folders);
            for (Path f : folders) {
                try (Stream<Path> in = Files.list(f)) {
                    assertEquals(0, in.count(), f.toString());
                }
            }
        }
        String comment = Files.readString(out.resolve("comment.md"));
        assertTrue(
                comment.contains("1 submodule the clone has not checked out was left out of both sides&#39; trees"
                        + " alike (vendor/lib)"),
                comment);
    }

    @Test
    void aSubmoduleTheWorkloadNeedsStopsTheRunSayingWhichAndHow() throws IOException {
        Path clone = cloneWithoutSubmodules(repo("submodules: required\n"));
        Cli run = Cli.ab(engine().engine(), clone, tmp.resolve("out"));
        assertEquals(ExitCode.RUN_FAILED, run.exitCode(), run.err());
        assertTrue(
                run.err().contains("the workload needs submodule 'vendor/lib'")
                        && run.err().contains("git submodule update --init --recursive")
                        && run.err().contains("submodules: recursive"),
                run.err());
    }

    @Test
    void aListOfSubmodulesNeedsOnlyThose() throws IOException {
        Path listed = cloneWithoutSubmodules(repo("submodules: [vendor/lib]\n"));
        Cli needed = Cli.ab(engine().engine(), listed, tmp.resolve("needed"));
        assertEquals(ExitCode.RUN_FAILED, needed.exitCode(), needed.err());
        assertTrue(needed.err().contains("needs submodule 'vendor/lib'"), needed.err());
    }

    @Test
    void aSubmoduleWhoseCommitMovedIsPartOfTheChangeAndNamed() throws IOException {
        GitFixture g = repo("");
        g.git("checkout", "-q", "feature");
        Path inTree = g.dir().resolve("vendor/lib");
        Files.writeString(inTree.resolve("lib.txt"), "library, faster\n");
        g.run(inTree, "commit", "-q", "-am", "a faster library");
        String moved = g.run(inTree, "rev-parse", "--short=12", "HEAD").strip();
        g.git("add", "vendor/lib");
        g.commit("take the faster library");
        g.git("checkout", "-q", "main");
        g.git("submodule", "update", "-q");
        Path out = tmp.resolve("out");
        Cli run = Cli.ab(engine().engine(), g.dir(), out);
        assertEquals(0, run.exitCode(), run.err());
        JsonNode results = JSON.readTree(out.resolve("results.json").toFile());
        assertTrue(Comparisons.warning(results, "submodules-left-out") == null, "every submodule was there");
        JsonNode changed = Comparisons.warning(results, "submodules-changed");
        assertTrue(changed != null, results.get("warnings").toString());
        String subject = changed.at("/subjects/0").asText();
        assertTrue(subject.startsWith("vendor/lib ") && subject.endsWith(".." + moved), subject);
        assertTrue(libraryThere.stream().allMatch(b -> b), "both sides had the library: " + libraryThere);
    }
}
