package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.ab.Engine;
import org.perfab.exec.Processes;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;
import org.perfab.testing.StartsProcesses;
import org.perfab.testing.Subjects;

/**
 * {@code perfab ab} end to end on real git repositories, on the fake engine: each side's build and
 * harness are programs in process that read that side's own files, so a test still fails when the
 * wrong side's code ran. The real build and harness processes are the subject of the *IT tests
 * ({@code EachSideRunsItsOwnCodeIT}, {@code AbFailFastIT}, {@code InterruptIT} and the others).
 */
class AbCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** Runs the subjects' builds and harnesses in process, for the tests whose subject is not a process. */
    private final FakeEngine fake = Subjects.fake();

    /** Runs {@code perfab ab} of feature against main, as {@link #ab} does, on the fake engine. */
    private Cli fakeAb(GitFixture g, String... more) {
        return run(fake.engine(), g, more);
    }

    private Cli run(Engine engine, GitFixture g, String... more) {
        return Cli.ab(engine, g.dir(), tmp.resolve("out"), more);
    }

    private JsonNode results() throws IOException {
        return JSON.readTree(tmp.resolve("out/results.json").toFile());
    }

    private static Map<String, JsonNode> byCell(JsonNode results) {
        Map<String, JsonNode> rows = new HashMap<>();
        for (JsonNode c : results.get("comparisons")) {
            rows.put(c.get("cell").asText(), c);
        }
        return rows;
    }

    @Test
    void measuresTheMergeBaseNotTheTipOfTheTargetBranch() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, "");
        String mergeBase = g.git("merge-base", "main", "feature").trim();
        Cli run = fakeAb(g);
        assertEquals(0, run.exitCode(), run.err());
        JsonNode r = results();
        assertEquals(mergeBase, r.at("/refs/mergeBase").asText());
        assertEquals(
                g.git("rev-parse", "main").trim(), r.at("/refs/base/commit").asText());
        JsonNode speed = byCell(r).get("speed/run");
        assertEquals(10000.0, speed.at("/base/mean").asDouble(), 1e-9, "level 100 of the merge-base, not 500 of main");
        assertEquals(11000.0, speed.at("/head/mean").asDouble(), 1e-9);
        assertEquals("regression", speed.get("verdict").asText());
        assertEquals("unchanged", byCell(r).get("steady/run").get("verdict").asText());
        assertTrue(run.out().contains("speed/run"), run.out());
        assertTrue(Files.readString(tmp.resolve("out/comment.md")).contains("regression"));
    }

    /** {@code --profile}, the former name of {@code --preset}, which scripts still pass, runs the same. */
    @Test
    void theFormerNameOfPresetChoosesTheSameSettings() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, "");
        Cli preset = Cli.ab(fake.engine(), g.dir(), tmp.resolve("preset"), "--preset", "release", "--seed", "7");
        assertEquals(0, preset.exitCode(), preset.err());
        Cli former = Cli.ab(fake.engine(), g.dir(), tmp.resolve("former"), "--profile", "release", "--seed", "7");
        assertEquals(0, former.exitCode(), former.err());
        JsonNode settings =
                JSON.readTree(tmp.resolve("preset/results.json").toFile()).get("settings");
        assertEquals(20, settings.get("trials").asInt());
        assertEquals(3, settings.get("builds").asInt());
        assertTrue(settings.get("padding").isNumber(), settings.toString());
        assertEquals(
                settings,
                JSON.readTree(tmp.resolve("former/results.json").toFile()).get("settings"));

        Cli both = Cli.ab(fake.engine(), g.dir(), tmp.resolve("both"), "--preset", "pr", "--profile", "release");
        assertEquals(2, both.exitCode(), both.err());
        assertTrue(both.err().contains("--profile release contradicts --preset pr"), both.err());
        Cli agreeing = Cli.ab(
                fake.engine(),
                g.dir(),
                tmp.resolve("agreeing"),
                "--preset",
                "release",
                "--profile",
                "release",
                "--seed",
                "7");
        assertEquals(0, agreeing.exitCode(), agreeing.err());
        Cli wrong = Cli.ab(fake.engine(), g.dir(), tmp.resolve("wrong"), "--profile", "nightly");
        assertEquals(2, wrong.exitCode(), wrong.err());
        assertTrue(wrong.err().contains("--preset must be pr or release, got 'nightly'"), wrong.err());
    }

    @Test
    void buildsEachSideIntoItsOwnPrivateFolder() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 2, "");
        // The build also records where the usual tool caches point, and what it can see there.
        String build = Subjects.BUILD + """
                echo "$CARGO_TARGET_DIR" > "$PERFAB_BUILD_DIR/cargo"
                ls "$CARGO_TARGET_DIR" 2>/dev/null > "$PERFAB_BUILD_DIR/seen" || true
                mkdir -p "$CARGO_TARGET_DIR" && cp level.txt "$CARGO_TARGET_DIR/built-from"
                """;
        g.script("build.sh", build);
        fake.script(build, c -> {
            Processes.Outcome built = fake.named("build.sh").run(c);
            Path out = Path.of(c.env().get("PERFAB_BUILD_DIR"));
            Path target = c.dir().resolve(c.env().get("CARGO_TARGET_DIR"));
            Files.writeString(out.resolve("cargo"), c.env().get("CARGO_TARGET_DIR") + "\n");
            StringBuilder seen = new StringBuilder();
            if (Files.isDirectory(target)) {
                try (Stream<Path> files = Files.list(target)) {
                    files.map(f -> f.getFileName() + "\n").sorted().forEach(seen::append);
                }
            }
            Files.writeString(out.resolve("seen"), seen);
            Files.createDirectories(target);
            Files.copy(c.dir().resolve("level.txt"), target.resolve("built-from"));
            return built;
        });
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("level.txt", "110\n");
        g.commit("the change");
        Cli run = fakeAb(g);
        assertEquals(0, run.exitCode(), run.err());
        Path base = tmp.resolve("out/work/base-0/out");
        Path head = tmp.resolve("out/work/head-0/out");
        String baseTarget = Files.readString(base.resolve("cargo")).trim();
        String headTarget = Files.readString(head.resolve("cargo")).trim();
        assertNotEquals(baseTarget, headTarget);
        assertTrue(headTarget.startsWith(head.toString()), headTarget);
        assertEquals("", Files.readString(head.resolve("seen")).trim(), "the head build starts from nothing");
        assertEquals("110", Files.readString(Path.of(headTarget, "built-from")).trim());
        assertEquals("100", Files.readString(base.resolve("level")).trim());
        assertEquals(
                Set.of(tmp.resolve("out/logs/build-base.log"), tmp.resolve("out/logs/build-head.log")),
                fake.ran().stream()
                        .filter(c -> c.argv().contains("build.sh"))
                        .map(c -> c.stdout().toAbsolutePath())
                        .collect(Collectors.toSet()),
                "each side's build writes its own log");
    }

    @Test
    void theHeadsHarnessDrivesBothSides() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 100, 3, "");
        g.git("checkout", "-q", "feature");
        renamingHarness(g);
        g.commit("the harness renames a cell");
        g.git("checkout", "-q", "main");
        assertEquals(0, fakeAb(g).exitCode());
        Map<String, JsonNode> rows = byCell(results());
        assertEquals(
                "unchanged",
                rows.get("renamed/run").get("verdict").asText(),
                "the base side ran the head's harness too");
        assertFalse(rows.containsKey("steady/run"));
        assertEquals("unchanged", rows.get("speed/run").get("verdict").asText());
    }

    @Test
    void selfLetsEachSideRunItsOwnHarness() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 100, 3, "");
        g.git("checkout", "-q", "feature");
        renamingHarness(g);
        g.write("perfab.yaml", Subjects.workload(3, "").replace("harness:\n", "harness:\n  from: self\n"));
        g.commit("the harness renames a cell, and each side runs its own");
        g.git("checkout", "-q", "main");
        assertEquals(0, fakeAb(g).exitCode());
        Map<String, JsonNode> rows = byCell(results());
        assertEquals("no-data", rows.get("renamed/run").get("verdict").asText());
        assertEquals("no-data", rows.get("steady/run").get("verdict").asText());
        assertEquals("self", results().at("/settings/harnessFrom").asText());
    }

    /**
     * Writes into {@code g} a harness that reports {@code steady/run} as {@code renamed/run}, and
     * gives the fake its program: the side whose tree holds the other harness reports the old name.
     */
    private void renamingHarness(GitFixture g) throws IOException {
        String renaming = Subjects.HARNESS.replace("steady/run", "renamed/run");
        g.script("bench.sh", renaming);
        fake.script(renaming, c -> {
            Processes.Outcome o = fake.named("bench.sh").run(c);
            Path result = Path.of(c.env().get("PERFAB_RESULT"));
            Files.writeString(result, Files.readString(result).replace("steady/run", "renamed/run"));
            return o;
        });
    }

    @Test
    void warnsWhenBothSidesBuildTheSameOutputs() throws IOException {
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        Subjects.write(g, 100, 2, "");
        g.commit("initial");
        g.git("checkout", "-q", "-b", "feature");
        g.write("README.md", "only the docs change\n");
        g.commit("docs");
        Cli run = fakeAb(g);
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(results().get("warnings").toString().contains("\"kind\":\"identical-builds\""));
        assertTrue(Files.readString(tmp.resolve("out/comment.md")).contains("byte-identical"));
        assertTrue(run.out().contains("WARNING: The build outputs of base and head are byte-identical"), run.out());
    }

    @Test
    void alternatesTheFirstPositionOfEachPair() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 100, 3, "");
        assertEquals(0, fakeAb(g).exitCode());
        StringBuilder order = new StringBuilder();
        for (JsonNode t : results().get("trials")) {
            order.append(t.get("side").asText().equals("base") ? 'A' : 'B');
            assertEquals(order.length() - 1, t.get("seq").asInt());
        }
        assertEquals("ABABBAAB", order.toString(), "one warm-up pair, then A B B A A B");
        assertTrue(results().get("trials").get(0).get("warmup").asBoolean());
    }

    @Test
    void aSeedShufflesEachPairReproducibly() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 100, 6, "");
        assertEquals(0, fakeAb(g, "--seed", "7").exitCode());
        String first = sides(results());
        Cli again = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--seed",
                "7",
                "--out",
                tmp.resolve("out2").toString());
        assertEquals(0, again.exitCode(), again.err());
        assertEquals(first, sides(JSON.readTree(tmp.resolve("out2/results.json").toFile())));
        for (int i = 0; i < first.length(); i += 2) {
            assertNotEquals(first.charAt(i), first.charAt(i + 1), "each pair has one trial of each side");
        }
        assertEquals(7, results().at("/settings/seed").asInt());
    }

    private static String sides(JsonNode results) {
        StringBuilder s = new StringBuilder();
        results.get("trials").forEach(t -> s.append(t.get("side").asText().charAt(0)));
        return s.toString();
    }

    @Test
    void recordsAFailingTrialAndGoesOn() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 100, 4, "");
        g.git("checkout", "-q", "feature");
        String flaky = "#!/bin/sh\nif [ \"$PERFAB_SIDE\" = head ] && [ \"$PERFAB_TRIAL\" = 1 ]"
                + " && [ \"$PERFAB_WARMUP\" = 0 ]; then echo 'segfault in widget' >&2; exit 139; fi\n"
                + Subjects.HARNESS.substring(Subjects.HARNESS.indexOf('\n') + 1);
        g.script("bench.sh", flaky);
        fake.script(flaky, c -> {
            if (c.env().get("PERFAB_SIDE").equals("head")
                    && c.env().get("PERFAB_TRIAL").equals("1")
                    && c.env().get("PERFAB_WARMUP").equals("0")) {
                Files.writeString(c.stderr(), "segfault in widget\n");
                return FakeEngine.exited(139, 0.01);
            }
            return fake.named("bench.sh").run(c);
        });
        g.commit("a flaky harness");
        g.git("checkout", "-q", "main");
        Cli run = fakeAb(g);
        assertEquals(0, run.exitCode(), run.err());
        JsonNode failed = null;
        for (JsonNode t : results().get("trials")) {
            if (t.get("status").asText().equals("failed")) {
                failed = t;
            }
        }
        assertEquals("head", failed.get("side").asText());
        assertEquals("the harness exited with code 139", failed.get("reason").asText());
        assertEquals("segfault in widget", failed.get("stderrTail").asText());
        assertTrue(
                run.out().contains("WARNING: 1 trial failed (head trial 2: the harness exited with code 139)"),
                run.out());
        assertTrue(run.out().contains("WARNING: head has 3 of the 4 trials asked for."), run.out());
        assertEquals(3, byCell(results()).get("speed/run").at("/head/n").asInt());
        assertTrue(run.err().contains("failed: the harness exited with code 139"), run.err());
    }

    @Test
    void recordsGarbageOutputAsAFailedTrialNamingTheProblem() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 100, 2, "");
        g.git("checkout", "-q", "feature");
        String garbage = "#!/bin/sh\necho '{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\":"
                + " \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": \"fast\"}]}' > \"$PERFAB_RESULT\"\n";
        g.script("bench.sh", garbage);
        fake.script(garbage, c -> {
            Files.writeString(
                    Path.of(c.env().get("PERFAB_RESULT")),
                    "{\"schema\": \"perfab/measurements/v1\","
                            + " \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": \"fast\"}]}\n");
            return FakeEngine.ok(0.01);
        });
        g.commit("garbage");
        g.git("checkout", "-q", "main");
        Cli run = fakeAb(g);
        assertEquals(3, run.exitCode(), "every trial of both sides failed");
        assertTrue(run.err().contains("every trial of base so far failed"), run.err());
        assertTrue(run.err().contains("\"value\" must be a number, got the string \"fast\""), run.err());
        JsonNode first = results().get("trials").get(0);
        assertTrue(
                first.get("reason").asText().startsWith("the harness output does not parse as perfab-json: "),
                first.toString());
        assertTrue(first.get("reason").asText().contains(".json:1:"), "names the line: " + first);
    }

    @Test
    void stopsWithTheLogTailWhenABuildFails() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 100, 2, "");
        g.git("checkout", "-q", "feature");
        String broken = "#!/bin/sh\necho compiling widget.c\necho 'widget.c:3: error: expected ;' >&2\nexit 2\n";
        g.script("build.sh", broken);
        fake.script(broken, c -> {
            Files.writeString(c.stdout(), "compiling widget.c\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            Files.writeString(
                    c.stderr(),
                    "widget.c:3: error: expected ;\n",
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            return FakeEngine.exited(2, 0.01);
        });
        g.commit("a broken build");
        g.git("checkout", "-q", "main");
        Cli run = fakeAb(g);
        assertEquals(3, run.exitCode());
        assertTrue(run.err().contains("the build of head"), run.err());
        assertTrue(run.err().contains("exited with code 2"), run.err());
        assertTrue(run.err().contains("widget.c:3: error: expected ;"), run.err());
        assertTrue(Files.readString(tmp.resolve("out/logs/build-head.log")).contains("compiling widget.c"));
    }

    @Test
    void anAaRunSaysItIsOneAndFindsNoRegression() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, "");
        Cli run = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=feature",
                "--head=feature",
                "--out",
                tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode r = results();
        assertTrue(r.get("aa").asBoolean());
        assertEquals(
                "aa-run", r.at("/warnings/0/kind").asText(), r.get("warnings").toString());
        assertTrue(run.out().contains("WARNING: A/A run: both sides are commit "), run.out());
        assertEquals(0, r.at("/counts/regression").asInt());
        assertEquals(0, r.at("/counts/improvement").asInt());
    }

    @Test
    void resolvesTheRefsPeopleType() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        g.git("tag", "v1", "main~1");
        String featureSha = g.git("rev-parse", "feature").trim();
        GitFixture clone = GitFixture.init(tmp.resolve("clone"));
        clone.git("fetch", "-q", g.dir().toString(), "+refs/heads/*:refs/remotes/origin/*");
        clone.git("fetch", "-q", g.dir().toString(), "+refs/tags/*:refs/tags/*");
        Cli run = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + clone.dir(),
                "--base=origin/main",
                "--head=" + featureSha.substring(0, 9),
                "--out",
                tmp.resolve("out").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(featureSha, results().at("/refs/head/commit").asText());
        Cli tagged = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + clone.dir(),
                "--base=v1",
                "--head=origin/feature~0",
                "--out",
                tmp.resolve("out2").toString());
        assertEquals(0, tagged.exitCode(), tagged.err());
    }

    /** Runs {@code perfab ab} of {@code more} (no --base unless given) in {@code repo}, into {@code out}, on the fake engine. */
    private Cli fakeAbIn(Path repo, String out, String... more) {
        List<String> args = new ArrayList<>(
                List.of("ab", "--repo=" + repo, "--out", tmp.resolve(out).toString()));
        args.addAll(List.of(more));
        return Cli.run(fake.engine(), args.toArray(String[]::new));
    }

    @Test
    void withoutABaseARepositoryWhoseBranchIsMasterIsMeasuredAgainstMaster() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        g.git("branch", "-m", "main", "master");
        Cli run = fakeAbIn(g.dir(), "out", "--head=feature");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("perfab: base: master, the repository's default branch (no origin/HEAD, and the"
                                + " only one of main, master, trunk and develop among its branches)\n"),
                run.err());
        JsonNode r = results();
        assertEquals("master", r.at("/refs/base/typed").asText());
        assertEquals(
                g.git("rev-parse", "master").trim(), r.at("/refs/base/commit").asText());
        assertEquals(
                g.git("merge-base", "master", "feature").trim(),
                r.at("/refs/mergeBase").asText());
        assertEquals("regression", byCell(r).get("speed/run").get("verdict").asText());
    }

    @StartsProcesses
    @Test
    void withoutABaseACloneIsMeasuredAgainstWhereOriginHeadPoints() throws IOException {
        GitFixture origin = Subjects.pullRequest(tmp.resolve("origin"), 110, 2, "");
        origin.git("branch", "-m", "main", "trunk");
        Path clone = tmp.resolve("clone");
        origin.run(tmp, "clone", "-q", origin.dir().toString(), clone.toString());
        // A local main, at the merge-base: a base of that name would measure nothing of trunk's.
        origin.run(clone, "branch", "main", "origin/trunk~1");
        Cli run = fakeAbIn(clone, "out", "--head=origin/feature");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.err().contains("perfab: base: origin/trunk, the repository's default branch (origin/HEAD)\n"),
                run.err());
        JsonNode r = results();
        assertEquals("origin/trunk", r.at("/refs/base/typed").asText());
        assertEquals(
                origin.git("rev-parse", "trunk").trim(),
                r.at("/refs/base/commit").asText());
    }

    @Test
    void withoutABaseTwoUsualBranchesAndNoOriginHeadAreRefusedNamingBoth() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        g.git("branch", "master", "main~1");
        Cli run = fakeAbIn(g.dir(), "out", "--head=feature");
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(
                "perfab: cannot tell the default branch of " + g.dir() + ", the base when --base is left out: it"
                        + " has no origin/HEAD to say which, and has the branches main and master; give --base\n",
                run.err());
        assertFalse(Files.exists(tmp.resolve("out/results.json")));
    }

    @Test
    void anUnknownBaseNamesTheBranchItCouldHaveMeant() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        g.git("branch", "-m", "main", "master");
        Cli run = fakeAbIn(g.dir(), "out", "--base=main", "--head=feature");
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(
                "perfab: unknown ref 'main' in " + g.dir() + " (a branch, tag, remote branch such as origin/main,"
                        + " or commit id); its branches include master, feature (did you mean master?)\n",
                run.err());
    }

    @Test
    void aBranchNameTheMessageQuotesCannotReachTheTerminal() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        // git refuses to make a branch of that name; a repository can have one all the same.
        Files.writeString(g.dir().resolve(".git/refs/heads/\u202Eevil\u001B[31m"), g.git("rev-parse", "main"));
        Cli run = fakeAbIn(g.dir(), "out", "--base=evil", "--head=feature");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().endsWith("its branches include feature, main, ?evil?[31m\n"), run.err());
        assertFalse(run.err().contains("\u001B") || run.err().contains("\u202E"), run.err());
    }

    @Test
    void namesAnUnknownRefAMissingRepositoryAndUnrelatedHistories() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Cli unknown = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=nope",
                "--out",
                tmp.resolve("o1").toString());
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().contains("unknown ref 'nope'"), unknown.err());
        Cli notGit = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + tmp,
                "--base=main",
                "--head=x",
                "--out",
                tmp.resolve("o2").toString());
        assertEquals(2, notGit.exitCode());
        assertTrue(notGit.err().contains(tmp + ": not a git repository"), notGit.err());
        g.git("checkout", "-q", "--orphan", "island");
        g.commit("unrelated");
        Cli unrelated = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=island",
                "--out",
                tmp.resolve("o3").toString());
        assertEquals(2, unrelated.exitCode());
        assertTrue(unrelated.err().contains("no merge-base between 'main' and 'island'"), unrelated.err());
    }

    @Test
    void namesABadWorkloadFileWithLineAndColumn() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        g.git("checkout", "-q", "feature");
        g.write("perfab.yaml", "name: x\nharness:\n  run: [sh, bench.sh]\n  timout: 5m\n");
        g.commit("a typo");
        Cli run = fakeAb(g);
        assertEquals(2, run.exitCode());
        assertTrue(
                run.err().contains("perfab.yaml at feature (")
                        && run.err().contains("):4:3: unknown key 'timout' in harness"),
                run.err());
        Cli missing = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--workload=bench/perf.yaml",
                "--out",
                tmp.resolve("o2").toString());
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("no workload file: bench/perf.yaml at feature"), missing.err());
        // An absolute path in the working tree names the tree's file: the head's, with its typo.
        Cli absolute = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--workload=" + g.dir().toAbsolutePath().resolve("perfab.yaml"),
                "--out",
                tmp.resolve("o4").toString());
        assertEquals(2, absolute.exitCode());
        assertTrue(absolute.err().contains(":4:3: unknown key 'timout' in harness"), absolute.err());
        // Also through a link to the repository's folder, as a shell's $PWD may be.
        Path link = Files.createSymbolicLink(tmp.resolve("link"), g.dir().toAbsolutePath());
        Cli linked = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--workload=" + link.resolve("perfab.yaml"),
                "--out",
                tmp.resolve("o5").toString());
        assertEquals(2, linked.exitCode());
        assertTrue(linked.err().contains(":4:3: unknown key 'timout' in harness"), linked.err());
        // A file outside the repository, which exists, is not taken for one of its working tree.
        Path outside = Files.writeString(tmp.resolve("outside.yaml"), Subjects.workload(3, ""));
        for (String path : List.of(outside.toString(), "../outside.yaml")) {
            Cli elsewhere = Cli.run(
                    fake.engine(),
                    "ab",
                    "--repo=" + g.dir(),
                    "--base=main",
                    "--head=feature",
                    "--workload=" + path,
                    "--out",
                    tmp.resolve("o3").toString());
            assertEquals(2, elsewhere.exitCode());
            assertTrue(
                    elsewhere
                            .err()
                            .contains("is outside the repository, and perfab reads the workload from the head's"
                                    + " tree, so that the harness is the head's own"),
                    elsewhere.err());
        }
    }

    @Test
    void refusesToOverwriteAnEarlierRun() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        assertEquals(0, fakeAb(g).exitCode());
        Cli again = fakeAb(g);
        assertEquals(2, again.exitCode());
        assertTrue(again.err().contains("already holds a run: continue it with --resume"), again.err());
    }

    @Test
    void reusesACachedBuildWhenTheTreeAndCommandMatch() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        g.git("checkout", "-q", "feature");
        g.script("build.sh", Subjects.BUILD + "sleep 1\n");
        g.commit("a slower build");
        g.git("checkout", "-q", "main");
        String cache = tmp.resolve("cache").toString();
        Path out = tmp.resolve("out");
        Cli first = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                out.toString(),
                "--cache",
                cache);
        assertEquals(0, first.exitCode(), first.err());
        assertTrue(
                first.err()
                        .matches("(?s).*perfab: building base \\([0-9a-f]+\\)\nperfab: built base \\([0-9a-f]+\\)"
                                + " in \\d+\\.\\d s  elapsed \\d+:\\d\\d\n.*"),
                "each build says when it starts and ends: " + first.err());
        Cli second = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("out2").toString(),
                "--cache",
                cache);
        assertEquals(0, second.exitCode(), second.err());
        assertTrue(
                second.err().contains("base (") && second.err().contains("build taken from the cache"),
                "a build that does not name its folder moves to another --out: " + second.err());
        assertEquals(
                "110",
                Files.readString(tmp.resolve("out2/work/head-0/out/level")).trim());
        Files.walk(out)
                .sorted(Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());
        Cli third = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                out.toString(),
                "--cache",
                cache);
        assertEquals(0, third.exitCode(), third.err());
        assertTrue(
                third.err().matches("(?s).*perfab: base \\([0-9a-f]+\\): build taken from the cache.*"), third.err());
        assertTrue(
                third.err().matches("(?s).*perfab: head \\([0-9a-f]+\\): build taken from the cache.*"), third.err());
        assertEquals(
                "110", Files.readString(out.resolve("work/head-0/out/level")).trim());
        assertEquals(
                "regression", byCell(results()).get("speed/run").get("verdict").asText());
    }

    @Test
    void aCachedBuildThatNamesItsFolderIsBuiltAgainInAnotherOut() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        g.git("checkout", "-q", "feature");
        // As a compiler's dependency file or debug paths do.
        String build = Subjects.BUILD + "echo \"$PERFAB_BUILD_DIR/level: level.txt\" > \"$PERFAB_BUILD_DIR/level.d\"\n";
        g.script("build.sh", build);
        fake.script(build, c -> {
            Processes.Outcome built = fake.named("build.sh").run(c);
            Files.writeString(
                    Path.of(c.env().get("PERFAB_BUILD_DIR"), "level.d"),
                    c.env().get("PERFAB_BUILD_DIR") + "/level: level.txt\n");
            return built;
        });
        g.commit("a build that records where it built");
        g.git("checkout", "-q", "main");
        String cache = tmp.resolve("cache").toString();
        Cli first = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("out").toString(),
                "--cache",
                cache);
        assertEquals(0, first.exitCode(), first.err());
        Cli second = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("out2").toString(),
                "--cache",
                cache);
        assertEquals(0, second.exitCode(), second.err());
        assertFalse(
                second.err().matches("(?s).*perfab: head \\([0-9a-f]+\\): build taken from the cache.*"), second.err());
        assertTrue(
                second.err().matches("(?s).*perfab: base \\([0-9a-f]+\\): build taken from the cache.*"),
                "the base's build names no folder: " + second.err());
        assertTrue(second.err().contains("the cached build of head was built in " + tmp.resolve("out")), second.err());
        assertTrue(
                second.err().contains("its files name that folder, so it cannot move to this run's: built again"),
                second.err());
        assertTrue(Files.readString(tmp.resolve("out2/work/head-0/out/level.d"))
                .startsWith(tmp.resolve("out2").toAbsolutePath().toString()));
        // The entry now holds the build of out2: a run there again takes it.
        Files.walk(tmp.resolve("out2"))
                .sorted(Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());
        Cli third = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("out2").toString(),
                "--cache",
                cache);
        assertTrue(
                third.err().matches("(?s).*perfab: head \\([0-9a-f]+\\): build taken from the cache.*"), third.err());
    }

    @Test
    void quietSaysNothingButTheResultsAndVerboseNamesEachTrialsCommandAndLog() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        Cli quiet = fakeAb(g, "--quiet");
        assertEquals(0, quiet.exitCode(), quiet.err());
        assertEquals("", quiet.err(), "no progress");
        assertTrue(quiet.out().contains("regression"), quiet.out());

        Cli verbose = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("out2").toString(),
                "-v");
        assertEquals(0, verbose.exitCode(), verbose.err());
        Path logs = tmp.resolve("out2/logs/trials");
        assertTrue(
                verbose.err()
                                .contains(
                                        "perfab: head trial 1: sh bench.sh  (in " + tmp.resolve("out2/work/head-0/tree")
                                                + "; log " + logs.resolve("0003-head-0.out") + ", 0003-head-0.err)")
                        || verbose.err()
                                .matches(
                                        "(?s).*perfab: head trial 1: sh bench\\.sh  \\(in .*head-0/tree; log .*-head-0\\.out,"
                                                + " .*-head-0\\.err\\).*"),
                verbose.err());
        assertTrue(verbose.err().contains("perfab: base warm-up 1: sh bench.sh"), verbose.err());
        assertTrue(verbose.err().contains("[1/6] base warm-up 1/1"), "and the usual progress: " + verbose.err());

        Cli both = fakeAb(g, "-q", "-v");
        assertEquals(2, both.exitCode(), both.err());
        assertTrue(both.err().contains("--quiet and --verbose: give one of them"), both.err());
    }

    @Test
    void theWorkloadChoosesBuildsAndSeedAndTheCommandLineWins() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 4, "builds: 2\nseed: 7\n");
        Cli run = fakeAb(g);
        assertEquals(0, run.exitCode(), run.err());
        JsonNode settings = results().get("settings");
        assertEquals(2, settings.get("builds").asInt(), settings.toString());
        assertEquals(7, settings.get("seed").asLong(), settings.toString());
        assertTrue(Files.isDirectory(tmp.resolve("out/work/head-1")), "a second build of each side");

        Cli mine = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("out2").toString(),
                "--builds",
                "1",
                "--seed",
                "9");
        assertEquals(0, mine.exitCode(), mine.err());
        JsonNode own = JSON.readTree(tmp.resolve("out2/results.json").toFile()).get("settings");
        assertEquals(1, own.get("builds").asInt(), own.toString());
        assertEquals(9, own.get("seed").asLong(), own.toString());

        Cli adaptive = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--out",
                tmp.resolve("out3").toString(),
                "--adaptive",
                "8");
        assertEquals(2, adaptive.exitCode(), adaptive.err());
        assertTrue(adaptive.err().contains("with 2 builds ('builds' of perfab.yaml at feature"), adaptive.err());
    }

    @Test
    void failOnMakesTheCommentSayTheJobFails() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, "");
        Cli run = fakeAb(g, "--fail-on", "regression", "--format", "markdown");
        assertEquals(1, run.exitCode(), run.err());
        String comment = Files.readString(tmp.resolve("out/comment.md"));
        assertFalse(comment.contains("never fails the job"), comment);
        assertTrue(comment.contains("This check fails the job when a cell is regression (--fail-on)."), comment);
        assertEquals("[\"regression\"]", results().at("/settings/failOn").toString());
        assertTrue(run.out().contains("This check fails the job"), run.out());
    }

    @Test
    void aRunWhoseTrialsAllFailedIsHeadlinedAsAFailure() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 2, "");
        g.git("checkout", "-q", "feature");
        String failing = "#!/bin/sh\n[ \"$PERFAB_SIDE\" = base ] || exit 3\n"
                + Subjects.HARNESS.substring(Subjects.HARNESS.indexOf('\n') + 1);
        g.script("bench.sh", failing);
        fake.script(
                failing,
                c -> c.env().get("PERFAB_SIDE").equals("base")
                        ? fake.named("bench.sh").run(c)
                        : FakeEngine.exited(3, 0.01));
        g.commit("the head's trials all fail");
        g.git("checkout", "-q", "main");
        Cli run = fakeAb(g);
        assertEquals(3, run.exitCode(), run.err());
        String comment = Files.readString(tmp.resolve("out/comment.md"));
        // The run stopped after the head's first trial failed as its warm-up had.
        assertTrue(comment.contains(": ❌ no comparison: no trial of the candidate succeeded (1 failed)"), comment);
        assertFalse(comment.contains("0 regressions"), comment);
    }

    @Test
    void adaptiveTrialsRunMoreRoundsOnlyWhileACellIsUndecided() throws IOException {
        // speed/run is 4% slower at a spread of 1%: after 3 trials per side p is about 0.009, short
        // of the first look's level (0.001), and its interval still reaches the bar; after
        // 6 it is plain. steady/run is the same on both sides and decided at once.
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 104, 3, "");
        Cli run = fakeAb(g, "--adaptive", "9");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("perfab: look 1 of at most 3: 1 of 2 cells decided (1 \u2705); 1 open (speed/run"
                                + " time), the next look runs 1 benchmark, 3 more trials a side, about "),
                run.err());
        assertTrue(run.err().contains("look 2 of at most 3 (6 trials per side): every cell is decided"), run.err());
        JsonNode r = results();
        assertEquals(6, r.at("/settings/trials").asInt());
        assertEquals(
                "{\"first\":3,\"max\":9}", r.at("/settings/thresholds/adaptive").toString());
        JsonNode speed = byCell(r).get("speed/run");
        assertEquals("regression", speed.get("verdict").asText(), speed.toString());
        assertEquals(6, speed.at("/head/n").asInt());
        assertEquals(2, speed.at("/look/look").asInt());
        assertTrue(speed.at("/look/alpha").asDouble() < 0.05);
        assertEquals("unchanged", byCell(r).get("steady/run").get("verdict").asText());
        long counted = 0;
        for (JsonNode t : r.get("trials")) {
            counted += t.get("warmup").asBoolean() ? 0 : 1;
        }
        assertEquals(12, counted, "two rounds of 3 trials per side");
        assertTrue(Files.readString(tmp.resolve("out/comment.md"))
                .contains("Adaptive trials: looks after 3, 6, 9 trials per side"));
        // The report of the saved run judges the looks the same way.
        Cli report = Cli.run(
                "report", "--format", "json", tmp.resolve("out/results.json").toString());
        assertEquals(0, report.exitCode(), report.err());
        assertEquals(
                2, JSON.readTree(report.out()).at("/comparisons/0/look/look").asInt(), report.out());
    }

    @Test
    void adaptiveTrialsRefuseWhatTheyCannotDo() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 104, 3, "");
        Cli fewer = fakeAb(g, "--adaptive", "2");
        assertEquals(2, fewer.exitCode(), fewer.err());
        assertTrue(
                fewer.err()
                        .contains("--adaptive 2 is fewer trials per side than the first round's 3 ('trials' of"
                                + " perfab.yaml at feature ("),
                fewer.err());
        Cli builds = fakeAb(g, "--adaptive", "9", "--builds", "2", "--force");
        assertEquals(2, builds.exitCode(), builds.err());
        assertTrue(
                builds.err().contains("--adaptive needs one build per side: with 2 builds (--builds)"), builds.err());
        // Each refusal names the layer that gave the setting: here the workload's builds.
        GitFixture two = Subjects.pullRequest(tmp.resolve("two"), 104, 3, "builds: 2\n");
        Cli workload = fakeAb(two, "--adaptive", "9", "--force");
        assertEquals(2, workload.exitCode(), workload.err());
        assertTrue(
                workload.err()
                        .contains("--adaptive needs one build per side: with 2 builds ('builds' of perfab.yaml"
                                + " at feature ("),
                workload.err());
    }

    @Test
    void aPullRequestRunIsAdaptiveByDefaultAndTheWorkloadOrTheCommandLineMayTurnItOff() throws IOException {
        // The subject's workload without its 'adaptive: off': speed/run 4% slower is undecided at 3
        // trials, so the run takes another round, up to the default 20.
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 104, 3, "");
        for (String branch : List.of("main", "feature")) {
            g.git("checkout", "-q", branch);
            g.write("perfab.yaml", Subjects.workload(3, "").replace("adaptive: off\n", ""));
            g.commit("adaptive by default");
        }
        g.git("checkout", "-q", "main");
        Cli run = fakeAb(g);
        assertEquals(0, run.exitCode(), run.err());
        JsonNode r = results();
        assertEquals(
                "{\"first\":3,\"max\":20}",
                r.at("/settings/thresholds/adaptive").toString());
        assertTrue(r.at("/settings/trials").asInt() > 3, "more than the first round");
        assertEquals("regression", byCell(r).get("speed/run").get("verdict").asText());

        Cli off = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--adaptive",
                "off",
                "--out",
                tmp.resolve("off").toString());
        assertEquals(0, off.exitCode(), off.err());
        JsonNode fixed = JSON.readTree(tmp.resolve("off/results.json").toFile());
        assertTrue(
                fixed.at("/settings/thresholds/adaptive").isNull(),
                fixed.at("/settings/thresholds").toString());
        assertEquals(3, fixed.at("/settings/trials").asInt());

        Cli bad = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--adaptive",
                "often",
                "--out",
                tmp.resolve("bad").toString());
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--adaptive must be off or the most trials per side, got 'often'"), bad.err());
    }

    @Test
    void noRoundOfAdaptiveTrialsStartsThatWouldPassTheBudgetAndTheStopSaysWhatWouldLetItRun() throws IOException {
        // speed/run is undecided after the first round. Each trial takes 30 s on the fake's clock:
        // the warm-ups and the first look spend 4 min, and the next look, which runs the harness
        // whole (perfab cannot filter it), 3 trials a side more, would take 3 min: past 5 min.
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 104, 3, "");
        FakeEngine slow = Subjects.fake();
        FakeEngine.Program bench = slow.named("bench.sh");
        slow.program("bench.sh", c -> {
            bench.run(c);
            return FakeEngine.ok(30);
        });
        Cli run = run(slow.engine(), g, "--adaptive", "9", "--budget", "5m");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("perfab: look 1 of at most 3: 1 of 2 cells decided (1 \u2705); 1 open (speed/run"
                                + " time); the next look (3 trials a side of 1 open benchmark) would take about 3 min, past --budget 5m"
                                + " (4 min spent): stopped; give --budget 8m to let it run\n"),
                run.err());
        assertEquals(3, results().at("/settings/trials").asInt());
        // The results record the stop, and the comment names the budget that lets the next look run.
        JsonNode stop = null;
        for (JsonNode w : results().get("warnings")) {
            stop = w.get("kind").asText().equals("budget-stop") ? w : stop;
        }
        assertEquals("[\"speed/run time\"]", stop.get("subjects").toString(), String.valueOf(stop));
        assertEquals(480_000, stop.at("/figures/enoughMillis").asLong(), stop.toString());
        assertEquals(300_000, stop.at("/figures/budgetMillis").asLong(), stop.toString());
        assertTrue(
                Files.readString(tmp.resolve("out/comment.md"))
                        .contains("The run stopped at look 1 of at most 3"
                                + " (3 trials per side) with 1 cell undecided (speed/run time): the next look, 3 more trials a side of"
                                + " 1 benchmark, would have taken about 3 min, past --budget 5m (4 min spent). --budget 8m lets it"
                                + " run."),
                Files.readString(tmp.resolve("out/comment.md")));
        // The budget it named lets the next look run.
        Cli more = Cli.ab(slow.engine(), g.dir(), tmp.resolve("more"), "--adaptive", "9", "--budget", "8m");
        assertEquals(0, more.exitCode(), more.err());
        assertFalse(more.err().contains("stopped; give --budget"), more.err());
        assertFalse(Files.readString(tmp.resolve("more/results.json")).contains("budget-stop"));
        assertEquals(
                6,
                JSON.readTree(tmp.resolve("more/results.json").toFile())
                        .at("/settings/trials")
                        .asInt());
        Cli bad = Cli.run(
                fake.engine(),
                "ab",
                "--repo=" + g.dir(),
                "--base=main",
                "--head=feature",
                "--budget",
                "soon",
                "--out",
                tmp.resolve("bad").toString());
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--budget 'soon' is not a duration"), bad.err());
    }

    /**
     * A signal at the head's third counted trial, on the fake engine: the run stops with the trials
     * that finished written, and a resume measures only what is left.
     */
    @Test
    void aRunSignalledAtATrialKeepsWhatFinishedAndAResumeEndsIt() throws IOException {
        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 4, "");
        FakeEngine signalling = Subjects.signallingAt(2);
        Cli stopped = run(signalling.engine(), g);
        assertEquals(130, stopped.exitCode(), stopped.err());
        JsonNode partial = results();
        assertTrue(partial.get("interrupted").asBoolean(), partial.toString());
        int finished = partial.get("trials").size();
        assertTrue(finished >= 5 && finished < 10, "the warm-ups and the trials before the signal: " + finished);

        Cli resumed = Cli.run(
                fake.engine(), "ab", "--resume", "--out", tmp.resolve("out").toString());
        assertEquals(0, resumed.exitCode(), resumed.err());
        JsonNode done = results();
        assertEquals(10, done.get("trials").size(), "two warm-ups and four trials a side, none twice");
        assertEquals("regression", byCell(done).get("speed/run").get("verdict").asText());
    }
}
