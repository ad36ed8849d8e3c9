package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.baseline.SyntheticSnapshots;
import org.perfab.model.Baseline;
import org.perfab.model.Snapshot;
import org.perfab.stats.RatioSpace;
import org.perfab.testing.GitFixture;
import org.perfab.testing.Subjects;

/**
 * {@code perfab baseline} from the command line, on the synthetic corpus built to the cases the
 * ratchet baseline was decided on (see {@link SyntheticSnapshots}): four tiers, a uniformly fast
 * host, a mixed capture, a benchmark seen once, an iteration count that moves, nested exclusion
 * prefixes, stray and misnamed files.
 */
class BaselineCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ANCHOR = SyntheticSnapshots.ANCHOR;
    private static final String[] EXCLUDE = {
        "--exclude",
        SyntheticSnapshots.SUITE,
        "--exclude",
        SyntheticSnapshots.SUITE_COMPILE,
        "--exclude",
        "RemovedBenchmark"
    };

    @TempDir
    Path tmp;

    @BeforeEach
    void corpus() throws IOException {
        SyntheticSnapshots.write(tmp, 1);
    }

    private Cli run(String... args) {
        return Cli.run(args);
    }

    private Cli seed(int window, String output, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "baseline",
                "seed",
                "--snapshots",
                tmp.resolve("history").toString(),
                "--anchor",
                ANCHOR,
                "--window",
                Integer.toString(window),
                "-o",
                tmp.resolve(output).toString()));
        args.addAll(List.of(EXCLUDE));
        args.addAll(List.of(more));
        Cli c = run(args.toArray(String[]::new));
        assertEquals(0, c.exitCode(), c.err());
        return c;
    }

    private Baseline baseline(String name) throws IOException {
        return Baseline.read(Files.readString(tmp.resolve(name)), name);
    }

    private JsonNode check(String snapshot, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "baseline",
                "check",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                tmp.resolve("tonight").resolve(snapshot).toString(),
                "--format",
                "json"));
        args.addAll(List.of(more));
        Cli c = run(args.toArray(String[]::new));
        assertEquals(0, c.exitCode(), c.err());
        return JSON.readTree(c.out());
    }

    static Map<String, JsonNode> rows(JsonNode check) {
        Map<String, JsonNode> m = new HashMap<>();
        check.get("benchmarks").forEach(n -> m.put(n.get("name").asText(), n));
        return m;
    }

    @Test
    void seedingKeepsTheUniformlyFastHostAndRejectsTheMixedCapture() throws IOException {
        Cli report = seed(5, "b5.json");
        Baseline b = baseline("b5.json");
        assertEquals(4, b.tiers().size());
        Baseline.Tier latest =
                b.tier(new Baseline.Key("ubuntu-latest", "amd64")).orElseThrow();
        Baseline.Member fast = latest.members().stream()
                .filter(m -> m.snapshot().endsWith(SyntheticSnapshots.FAST))
                .findFirst()
                .orElseThrow();
        assertEquals(RatioSpace.Fate.ACCEPTED, fast.fate(), "a host 22% fast on everything is kept");
        assertTrue(fast.anchorDeviation() < -15, "it ran fast: " + fast.anchorDeviation());
        assertTrue(Math.abs(fast.offset()) < 2, "its ratios agree: " + fast.offset());
        assertEquals(1, b.seeding().rejected().size(), b.seeding().rejected().toString());
        Baseline.Rejected mixed = b.seeding().rejected().get(0);
        assertTrue(mixed.snapshot().endsWith(SyntheticSnapshots.MIXED), mixed.toString());
        assertTrue(mixed.reason().startsWith("its ratios sit -1"), mixed.reason());
        assertTrue(report.out().contains("Rejected (1):\n  ubuntu-22-04/" + SyntheticSnapshots.MIXED), report.out());
        // ratio == value / anchor, by construction, for every floor
        for (Baseline.Entry e : b.entries()) {
            double anchor = b.tier(e.key()).orElseThrow().anchorValue();
            assertEquals(e.ratio(), e.value() / anchor, 1e-12 * e.ratio(), e.toString());
            assertFalse(e.benchmark().startsWith(SyntheticSnapshots.SUITE), "excluded: " + e.benchmark());
        }
        assertEquals(
                1.0,
                b.entries(latest.key()).stream()
                        .filter(e -> e.benchmark().equals(ANCHOR))
                        .findFirst()
                        .orElseThrow()
                        .ratio());
    }

    @Test
    void seedingReportsWhatItLeftOutAndNoticed() throws IOException {
        Cli report = seed(5, "b5.json");
        Baseline.Seeding r = baseline("b5.json").seeding();
        assertEquals(2, r.unparseable().size(), r.unparseable().toString());
        assertTrue(
                r.skipped().stream()
                        .anyMatch(s -> s.subject().equals(SyntheticSnapshots.THIN)
                                && s.reason()
                                        .startsWith("seen in 1 of the 5 snapshots counted, under half: not seeded")),
                r.toString());
        assertTrue(baseline("b5.json").entries().stream()
                .noneMatch(e -> e.benchmark().equals(SyntheticSnapshots.THIN)));
        assertEquals(
                4,
                r.notes().stream()
                        .filter(n -> n.kind() == Baseline.NoteKind.ITERATIONS_MOVED
                                && n.subject().equals(SyntheticSnapshots.MOVING_N))
                        .count(),
                "one per tier, and no other benchmark");
        assertEquals(
                4,
                r.notes().stream()
                        .filter(n -> n.kind() == Baseline.NoteKind.ITERATIONS_MOVED)
                        .count());
        assertTrue(
                r.notes().stream()
                        .anyMatch(n -> n.kind() == Baseline.NoteKind.NAME_DISAGREES
                                && n.subject().equals(SyntheticSnapshots.MISNAMED)
                                && n.detail().startsWith("its name says arm64, its content amd64")),
                r.notes().toString());
        assertEquals(
                List.of(SyntheticSnapshots.SUITE, SyntheticSnapshots.SUITE_COMPILE),
                r.liveExclusions(),
                "a prefix of another prefix is live too");
        assertEquals(List.of("RemovedBenchmark"), r.staleExclusions());
        assertTrue(
                report.out().contains("Exclusion prefixes that match nothing (stale) (1):\n  RemovedBenchmark"),
                report.out());
        assertTrue(
                report.out().contains("Skipped, file names that are not a snapshot's (DATE-SHA-MACHINESLUG.json) (2):"),
                report.out());
    }

    @Test
    void diffOfWindowOneAgainstWindowFivePrintsTheSharesPastEachThreshold() throws IOException {
        seed(1, "b1.json");
        seed(5, "b5.json");
        Cli diff = run(
                "baseline",
                "diff",
                tmp.resolve("b1.json").toString(),
                tmp.resolve("b5.json").toString());
        assertEquals(0, diff.exitCode(), diff.err());
        assertTrue(
                diff.out().contains("differ by more than 5%  differ by more than 10%  differ by more than 25%"),
                diff.out());
        JsonNode d = JSON.readTree(run(
                        "baseline",
                        "diff",
                        tmp.resolve("b1.json").toString(),
                        tmp.resolve("b5.json").toString(),
                        "--format",
                        "json")
                .out());
        JsonNode all = d.get("tiers").get(d.get("tiers").size() - 1);
        assertTrue(all.get("machine").isNull());
        double floors = all.get("floors").asInt();
        double past5 = all.get("past").get(0).asInt() / floors;
        double past10 = all.get("past").get(1).asInt() / floors;
        double past25 = all.get("past").get(2).asInt() / floors;
        // The seed's corpus: 22.6%, 11.3% and 5.8% of 758 floors. One snapshot sets a fifth of the floors.
        assertTrue(past5 > 0.12 && past5 < 0.35, "past 5%: " + past5);
        assertTrue(past10 > 0.05 && past10 < past5, "past 10%: " + past10);
        assertTrue(past25 > 0 && past25 < past10, "past 25%: " + past25);
        assertEquals(4, d.get("onlyFirst").asInt(), "the benchmark seen once is a floor of window 1 only, per tier");
    }

    @Test
    void seedingOneArchitectureNeverTouchesAnothers() throws IOException {
        seed(5, "b.json");
        Baseline before = baseline("b.json");
        Cli arm = seed(3, "b.json", "--arch", "arm64");
        Baseline after = baseline("b.json");
        for (Baseline.Key k :
                List.of(new Baseline.Key("ubuntu-latest", "amd64"), new Baseline.Key("ubuntu-22.04", "amd64"))) {
            assertEquals(before.entries(k), after.entries(k), "amd64 kept: " + k);
            assertEquals(before.tier(k), after.tier(k));
        }
        Baseline.Key mac = new Baseline.Key("macos-14", "arm64");
        assertEquals(3, after.tier(mac).orElseThrow().window());
        assertEquals(List.of("Apple M3"), after.tier(mac).orElseThrow().cpus());
        assertTrue(
                arm.out().contains("its name says arm64, its content amd64: it counts as amd64"),
                "the misnamed file is filtered by its content, and said so: " + arm.out());
        assertTrue(after.tiers().stream()
                .noneMatch(t -> t.members().stream()
                        .anyMatch(m -> m.snapshot().equals(SyntheticSnapshots.MISNAMED)
                                && t.key().arch().equals("arm64"))));
    }

    @Test
    void checksInRatioSpaceSoAFastOrSlowHostTripsNothing() throws IOException {
        seed(5, "b5.json");
        JsonNode clean = check("clean.json");
        JsonNode fast = check("fast-host.json");
        JsonNode slow = check("slow-host.json");
        assertEquals(clean.get("counts"), fast.get("counts"));
        assertEquals(clean.get("counts"), slow.get("counts"));
        assertEquals(
                30.0, slow.get("hostSpeed").asDouble() - clean.get("hostSpeed").asDouble() * 1.3, 1.5);
        assertTrue(fast.get("hostSpeed").asDouble() < -20, fast.toString());
        Map<String, JsonNode> regressed = rows(check("regressed.json"));
        Map<String, JsonNode> before = rows(clean);
        JsonNode r = regressed.get(SyntheticSnapshots.REGRESSED);
        assertEquals("REGRESSED", r.get("status").asText());
        assertEquals(
                (1 + before.get(SyntheticSnapshots.REGRESSED).get("change").asDouble() / 100) * 1.12,
                1 + r.get("change").asDouble() / 100,
                1e-9);
        assertEquals("NEW", before.get(SyntheticSnapshots.THIN).get("status").asText());
        assertFalse(clean.get("incoherent").asBoolean());
        JsonNode mixed = check("mixed-capture.json");
        assertTrue(mixed.get("incoherent").asBoolean(), "every ratio 17% low together");
        Cli text = run(
                "baseline",
                "check",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                tmp.resolve("tonight/mixed-capture.json").toString());
        assertTrue(text.out().matches("(?s).*The ratios moved together, by -1\\d\\.\\d% at the median.*"), text.out());
    }

    @Test
    void aMissingBenchmarkExclusionsAndFailOn() throws IOException {
        seed(5, "b5.json");
        Snapshot clean = Snapshot.read(Files.readString(tmp.resolve("tonight/clean.json")), "clean.json");
        Snapshot fewer = new Snapshot(
                clean.machine(),
                clean.arch(),
                clean.cpu(),
                clean.commit(),
                clean.date(),
                clean.benchmarks().stream()
                        .filter(b -> !b.name().equals("Hash/Sha/64"))
                        .toList());
        Files.writeString(tmp.resolve("tonight/fewer.json"), fewer.write());
        Map<String, JsonNode> rows = rows(check("fewer.json", EXCLUDE));
        assertEquals("MISSING", rows.get("Hash/Sha/64").get("status").asText());
        assertFalse(rows.keySet().stream().anyMatch(n -> n.startsWith(SyntheticSnapshots.SUITE)));
        Cli fail = run(
                "baseline",
                "check",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                tmp.resolve("tonight/regressed.json").toString(),
                "--budget",
                "50",
                "--fail-on",
                "regressed");
        assertEquals(1, fail.exitCode(), fail.out());
        Cli pass = run(
                "baseline",
                "check",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                tmp.resolve("tonight/regressed.json").toString(),
                "--budget",
                "50");
        assertEquals(0, pass.exitCode(), "advisory unless --fail-on");
        assertEquals(
                "REGRESSED",
                rows(check("regressed.json", "--budget", "10"))
                        .get(SyntheticSnapshots.REGRESSED)
                        .get("status")
                        .asText());
        Cli gh = run(
                "baseline",
                "check",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                tmp.resolve("tonight/regressed.json").toString(),
                "--budget",
                "10",
                "--format",
                "github");
        assertTrue(gh.out().startsWith("::warning title=perfab baseline%3A regressed::"), gh.out());
        assertTrue(gh.out().lines().count() <= 10, gh.out());
    }

    @Test
    void theFloorUnderTheBudgetIsMeasuredStoredAndApplied() throws IOException {
        seed(5, "b5.json");
        Cli none = run(
                "baseline",
                "check",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                tmp.resolve("tonight/clean.json").toString(),
                "--budget",
                "auto");
        assertEquals(2, none.exitCode());
        assertTrue(
                none.err()
                        .contains("no measured floor for ubuntu-latest (amd64), so --budget auto has nothing to"
                                + " multiply"),
                none.err());
        Cli floor = run(
                "baseline",
                "floor",
                "--snapshots",
                tmp.resolve("control").toString(),
                "--baseline",
                tmp.resolve("b5.json").toString(),
                EXCLUDE[0],
                EXCLUDE[1]);
        assertEquals(0, floor.exitCode(), floor.err());
        assertTrue(floor.out().matches("(?s).*\nubuntu-latest \\(amd64\\) +6 +15 .*"), floor.out());
        Baseline.Floor f = baseline("b5.json")
                .floor(new Baseline.Key("ubuntu-latest", "amd64"))
                .orElseThrow();
        assertEquals(15, f.pairs());
        assertTrue(f.p50() < f.p95() && f.p95() <= f.p99() && f.p99() <= f.max(), f.toString());
        JsonNode auto = check("clean.json", "--budget", "auto", "--budget-multiple", "1.5");
        assertEquals(1.5 * f.p95(), auto.get("budget").get("percent").asDouble(), 1e-9);
        assertEquals("auto", auto.get("budget").get("source").asText());
        Cli text = run(
                "baseline",
                "check",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                tmp.resolve("tonight/clean.json").toString(),
                "--budget",
                "auto");
        assertTrue(
                text.out()
                        .contains("budget auto: 2 × each benchmark's own spread between 6 control snapshots of"
                                + " this tier (measured 2026-08-28), at least 2 × "),
                text.out());
        assertTrue(
                f.benchmarks().size() > 80,
                "each benchmark's own figure: " + f.benchmarks().size());
        // One budget for a tier of quiet and noisy benchmarks flags the noisy at 5% and misses the quiet at its 95th
        // percentile; each benchmark's own does neither.
        int cleanAt5 =
                check("clean.json", EXCLUDE).get("counts").get("regressed").asInt();
        int cleanAuto = check("clean.json", "--budget", "auto", EXCLUDE[0], EXCLUDE[1], EXCLUDE[2], EXCLUDE[3])
                .get("counts")
                .get("regressed")
                .asInt();
        assertTrue(
                cleanAuto * 3 < cleanAt5,
                cleanAuto + " clean benchmarks flagged with budget auto, " + cleanAt5 + " at 5%");
        JsonNode caught = rows(check("regressed.json", "--budget", "auto")).get(SyntheticSnapshots.REGRESSED);
        assertEquals("REGRESSED", caught.get("status").asText(), caught.toString());
        assertTrue(caught.get("budget").asDouble() < 10, "a quiet benchmark's own budget: " + caught);
        assertTrue(baseline("b5.json").tiers().size() == 4, "storing floors keeps the tiers");
    }

    @Test
    void updateNamesASnapshotOlderThanTheWindowAndAFloorThatFellTwentyfold() throws IOException {
        seed(5, "b5.json");
        Snapshot clean = Snapshot.read(Files.readString(tmp.resolve("tonight/clean.json")), "clean.json");
        Baseline before = baseline("b5.json");
        String victim = before.entries().stream()
                .filter(e -> e.key().machine().equals(clean.machine())
                        && !e.benchmark().equals(ANCHOR)
                        && clean.benchmark(e.benchmark()).isPresent())
                .findFirst()
                .orElseThrow()
                .benchmark();
        Snapshot stale = new Snapshot(
                clean.machine(),
                clean.arch(),
                clean.cpu(),
                clean.commit(),
                LocalDate.of(2001, 1, 1),
                clean.benchmarks().stream()
                        .map(b -> b.name().equals(victim)
                                ? new Snapshot.Benchmark(b.name(), b.value() / 20, b.unit(), b.iterations())
                                : b)
                        .toList());
        Path file = tmp.resolve("stale.json");
        Files.writeString(file, stale.write());
        Cli up = run(
                "baseline", "update", "--baseline", tmp.resolve("b5.json").toString(), "--snapshot", file.toString());
        assertEquals(0, up.exitCode(), up.err());
        LocalDate newest = before.tiers().stream()
                .filter(t -> t.key().machine().equals(clean.machine()))
                .findFirst()
                .orElseThrow()
                .date();
        assertTrue(
                up.out()
                        .contains("  note: it is older than the window its tier was seeded from (the newest of"
                                + " which is " + newest + "): its floors go back in time"),
                up.out());
        assertTrue(
                up.out()
                        .matches(
                                "(?s).*  note: " + Pattern.quote(victim) + " fell 9\\d\\.\\d%"
                                        + " \\(ratio [^)]+\\), more than the --drop-tolerance of 50%: check that it still does its work\n.*"),
                up.out());
        assertEquals(1, up.out().split("fell ", -1).length - 1, "one floor fell past a halving: " + up.out());
        Cli strict = run(
                "baseline",
                "update",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                file.toString(),
                "--drop-tolerance",
                "0");
        assertEquals(2, strict.exitCode());
        assertTrue(strict.err().contains("--drop-tolerance must be a percentage above 0, got 0.0"), strict.err());
    }

    @Test
    void updateSaysWhatItDidInEachFormatAndAsAStep() throws IOException {
        seed(5, "b5.json");
        Cli json = run(
                "baseline",
                "update",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                tmp.resolve("tonight/clean.json").toString(),
                "--format",
                "json",
                "-o",
                tmp.resolve("u.json").toString());
        assertEquals(0, json.exitCode(), json.err());
        JsonNode update = new ObjectMapper().readTree(json.out());
        assertEquals("perfab/baseline-update/v1", update.get("schema").asText());
        int lowered = update.get("lowered").asInt();
        assertTrue(lowered > 10, json.out());
        assertEquals(lowered, update.at("/snapshots/0/lowered").size());
        assertTrue(
                json.err().contains("perfab: " + lowered + " floors lowered; wrote " + tmp.resolve("u.json")),
                json.err());
        // As a job step: the annotations printed, the Markdown in the summary, the counts as outputs.
        Path summary = tmp.resolve("summary.md");
        Path outputs = tmp.resolve("outputs");
        Files.writeString(summary, "");
        Cli step = Cli.run(
                Map.of("GITHUB_STEP_SUMMARY", summary.toString(), "GITHUB_OUTPUT", outputs.toString()),
                "baseline",
                "update",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                tmp.resolve("tonight/mixed-capture.json").toString(),
                "--format",
                "github",
                "-o",
                tmp.resolve("u2.json").toString());
        assertEquals(0, step.exitCode(), step.err());
        assertTrue(step.out().startsWith("::notice title=perfab baseline update::"), step.out());
        assertTrue(
                Files.readString(summary).startsWith("### perfab baseline update: 0 floors lowered by 1 snapshot"),
                Files.readString(summary));
        assertEquals("fell-far=0\nlowered=0\n", Files.readString(outputs));
    }

    @Test
    void updateRatchetsDownButNeverFromAMixedCapture() throws IOException {
        seed(5, "b5.json");
        Baseline before = baseline("b5.json");
        String beforeText = Files.readString(tmp.resolve("b5.json"));
        Cli mixed = run(
                "baseline",
                "update",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                tmp.resolve("tonight/mixed-capture.json").toString());
        assertEquals(0, mixed.exitCode(), mixed.err());
        assertTrue(mixed.out().matches("(?s).*not taken: its ratios moved together by -1\\d\\.\\d%.*"), mixed.out());
        assertEquals(before, baseline("b5.json"));
        Cli up = run(
                "baseline",
                "update",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                tmp.resolve("tonight/clean.json").toString(),
                EXCLUDE[0],
                EXCLUDE[1],
                EXCLUDE[2],
                EXCLUDE[3]);
        assertEquals(0, up.exitCode(), up.err());
        assertTrue(up.out().contains("floors ratcheted down; 1 new benchmark not added (seed to add them)"), up.out());
        Baseline after = baseline("b5.json");
        assertFalse(beforeText.equals(Files.readString(tmp.resolve("b5.json"))));
        Snapshot clean = Snapshot.read(Files.readString(tmp.resolve("tonight/clean.json")), "clean.json");
        double anchor = clean.benchmark(ANCHOR).orElseThrow().value();
        int lowered = 0;
        for (Baseline.Entry e : after.entries()) {
            Baseline.Entry old = before.entries().stream()
                    .filter(o -> o.key().equals(e.key()) && o.benchmark().equals(e.benchmark()))
                    .findFirst()
                    .orElseThrow();
            assertTrue(e.ratio() <= old.ratio(), "floors only go down: " + e);
            assertEquals(
                    e.ratio(), e.value() / after.tier(e.key()).orElseThrow().anchorValue(), 1e-12 * e.ratio());
            if (e.ratio() < old.ratio()) {
                lowered++;
                assertEquals("clean.json", e.setBy());
                assertEquals(clean.benchmark(e.benchmark()).orElseThrow().value() / anchor, e.ratio(), 1e-12);
            }
        }
        assertTrue(lowered > 10, "lowered " + lowered);
        assertFalse(up.out().contains("note:"), "an ordinary night, newer than the window, names nothing: " + up.out());
        JsonNode again = check("clean.json", "--budget", "0");
        assertEquals(
                0,
                again.get("counts").get("regressed").asInt()
                        - rows(again).values().stream()
                                .filter(n -> n.get("status").asText().equals("REGRESSED")
                                        && n.get("change").asDouble() > 0)
                                .count());
    }

    @Test
    void snapshotsComeFromGoOutputAndFromAnAbRun() throws IOException {
        Path go = tmp.resolve("bench.txt");
        Files.writeString(go, """
                goos: linux
                goarch: arm64
                pkg: example.com/calc
                cpu: Neoverse-N2
                BenchmarkAnchor/loop-4    \t 1000000\t      1000 ns/op\t       0 B/op\t       0 allocs/op
                BenchmarkAnchor/loop-4    \t 1200000\t      1040 ns/op\t       0 B/op\t       0 allocs/op
                BenchmarkAnchor/loop-4    \t 1100000\t       990 ns/op\t       0 B/op\t       0 allocs/op
                BenchmarkParse/small-4    \t  500000\t      2500 ns/op\t     128 B/op\t       2 allocs/op
                BenchmarkParse/small-4    \t  400000\t      2600 ns/op\t     128 B/op\t       2 allocs/op
                BenchmarkParse/small-4    \t  500000\t      2450 ns/op\t     128 B/op\t       2 allocs/op
                PASS
                ok  \texample.com/calc\t3.2s
                """);
        Cli snap = run(
                "baseline",
                "snapshot",
                "--from",
                go.toString(),
                "--machine",
                "ubuntu-24.04-arm",
                "--commit",
                "c9bf9335d100aa00b548b70eae6215d4486828b5",
                "--date",
                "2026-08-07",
                "--dir",
                tmp.resolve("snaps").toString());
        assertEquals(0, snap.exitCode(), snap.err());
        Path file = tmp.resolve("snaps/2026-08-07-c9bf9335d100-ubuntu-24-04-arm.json");
        // Another machine key with the same file name, and a rerun of the day with other values, are
        // never written over it silently; the same snapshot again is.
        String written = Files.readString(file);
        Cli other = run(
                "baseline",
                "snapshot",
                "--from",
                go.toString(),
                "--machine",
                "Ubuntu 24.04 ARM",
                "--commit",
                "c9bf9335d100aa00b548b70eae6215d4486828b5",
                "--date",
                "2026-08-07",
                "--dir",
                tmp.resolve("snaps").toString());
        assertEquals(2, other.exitCode(), other.err());
        assertTrue(
                other.err()
                        .contains("holds a snapshot of the machine 'ubuntu-24.04-arm', whose file name is the one"
                                + " of 'Ubuntu 24.04 ARM'"),
                other.err());
        Cli same = run(
                "baseline",
                "snapshot",
                "--from",
                go.toString(),
                "--machine",
                "ubuntu-24.04-arm",
                "--commit",
                "c9bf9335d100aa00b548b70eae6215d4486828b5",
                "--date",
                "2026-08-07",
                "--dir",
                tmp.resolve("snaps").toString());
        assertEquals(0, same.exitCode(), same.err());
        assertTrue(same.err().contains("already holds this snapshot"), same.err());
        Path rerun = tmp.resolve("rerun.txt");
        Files.writeString(rerun, Files.readString(go).replace("1000 ns/op", "1010 ns/op"));
        Cli again = run(
                "baseline",
                "snapshot",
                "--from",
                rerun.toString(),
                "--machine",
                "ubuntu-24.04-arm",
                "--commit",
                "c9bf9335d100aa00b548b70eae6215d4486828b5",
                "--date",
                "2026-08-07",
                "--dir",
                tmp.resolve("snaps").toString());
        assertEquals(2, again.exitCode(), again.err());
        assertTrue(again.err().contains("give --replace to keep this one instead"), again.err());
        assertEquals(written, Files.readString(file), "nothing written over");
        Cli replaced = run(
                "baseline",
                "snapshot",
                "--from",
                rerun.toString(),
                "--machine",
                "ubuntu-24.04-arm",
                "--commit",
                "c9bf9335d100aa00b548b70eae6215d4486828b5",
                "--date",
                "2026-08-07",
                "--dir",
                tmp.resolve("snaps").toString(),
                "--replace");
        assertEquals(0, replaced.exitCode(), replaced.err());
        assertTrue(!written.equals(Files.readString(file)));
        Files.writeString(file, written);
        Snapshot s = Snapshot.read(Files.readString(file), file.toString());
        assertEquals("arm64", s.arch());
        assertEquals("Neoverse-N2", s.cpu());
        assertEquals(1000, s.benchmark("Anchor/loop").orElseThrow().value(), "the median of -count 3");
        assertEquals(
                1100000, s.benchmark("Anchor/loop").orElseThrow().iterations().getAsLong());
        assertEquals(2500, s.benchmark("Parse/small").orElseThrow().value());
        assertEquals("ns/op", s.benchmark("Parse/small").orElseThrow().unit());
        Cli allocs = run("baseline", "snapshot", "--from", go.toString(), "--machine", "m", "--metric", "alloc-bytes");
        assertEquals(0, allocs.exitCode(), allocs.err());
        assertTrue(allocs.out().contains("\"unit\" : \"B/op\""), allocs.out());
        assertTrue(
                allocs.err()
                        .contains("left out 1 benchmark whose value is 0 (a ratio needs a cost above 0):"
                                + " Anchor/loop"),
                allocs.err());
        Cli wrong = run("baseline", "snapshot", "--from", go.toString(), "--machine", "m", "--metric", "cycles");
        assertEquals(2, wrong.exitCode());
        assertTrue(wrong.err().contains(go + ": no metric 'cycles' (it has alloc-bytes, allocs, time)"), wrong.err());

        GitFixture g = Subjects.pullRequest(tmp.resolve("repo"), 110, 3, "");
        Cli ab = Cli.ab(Subjects.fake().engine(), g.dir(), tmp.resolve("out"));
        assertEquals(0, ab.exitCode(), ab.err());
        Cli fromAb = run(
                "baseline",
                "snapshot",
                "--results",
                tmp.resolve("out/results.json").toString(),
                "--machine",
                "ubuntu-latest",
                "--arch",
                "amd64",
                "--date",
                "2026-08-07",
                "-o",
                tmp.resolve("ab.json").toString());
        assertEquals(0, fromAb.exitCode(), fromAb.err());
        Snapshot a = Snapshot.read(Files.readString(tmp.resolve("ab.json")), "ab.json");
        assertEquals(
                11.0,
                a.benchmark("speed/run").orElseThrow().value()
                        / a.benchmark("steady/run").orElseThrow().value(),
                1e-9,
                "the head's trials: speed/run 110 against steady/run 10");
        assertEquals(g.git("rev-parse", "feature").strip(), a.commit());
    }

    @Test
    void badInputNamesTheFileAndWhatIsWrong() throws IOException {
        seed(5, "b5.json");
        Path broken = tmp.resolve("history/ubuntu-latest/2026-08-01-abcdef1234-ubuntu-latest.json");
        Files.writeString(broken, "{\"schema\": \"perfab/snapshot/v1\",\n \"machine\": ");
        Cli report = seed(5, "again.json");
        assertTrue(report.out().contains("ubuntu-latest/2026-08-01-abcdef1234-ubuntu-latest.json:2:"), report.out());
        Cli snap = run(
                "baseline", "check", "--baseline", tmp.resolve("b5.json").toString(), "--snapshot", broken.toString());
        assertEquals(2, snap.exitCode());
        assertTrue(snap.err().contains(broken + ":2:"), snap.err());
        Snapshot clean = Snapshot.read(Files.readString(tmp.resolve("tonight/clean.json")), "clean.json");
        Path noAnchor = tmp.resolve("no-anchor.json");
        Files.writeString(
                noAnchor,
                new Snapshot(
                                clean.machine(),
                                clean.arch(),
                                clean.cpu(),
                                clean.commit(),
                                clean.date(),
                                clean.benchmarks().stream()
                                        .filter(b -> !b.name().equals(ANCHOR))
                                        .toList())
                        .write());
        Cli anchorless = run(
                "baseline",
                "check",
                "--baseline",
                tmp.resolve("b5.json").toString(),
                "--snapshot",
                noAnchor.toString());
        assertEquals(2, anchorless.exitCode());
        assertTrue(
                anchorless.err().contains(noAnchor + " has no benchmark Anchor/Loop, the baseline's anchor"),
                anchorless.err());
        assertEquals(
                2,
                run(
                                "baseline",
                                "seed",
                                "--snapshots",
                                tmp.resolve("history").toString(),
                                "--anchor",
                                ANCHOR,
                                "--window",
                                "0",
                                "-o",
                                tmp.resolve("x.json").toString())
                        .exitCode());
        Cli empty = run(
                "baseline",
                "seed",
                "--snapshots",
                tmp.resolve("tonight").toString(),
                "--anchor",
                ANCHOR,
                "-o",
                tmp.resolve("x.json").toString());
        assertEquals(2, empty.exitCode());
        assertTrue(empty.err().contains("no tier was seeded") && !Files.exists(tmp.resolve("x.json")), empty.err());
        Cli arch = run(
                "baseline",
                "seed",
                "--snapshots",
                tmp.resolve("history").toString(),
                "--anchor",
                ANCHOR,
                "--arch",
                "sparc",
                "-o",
                tmp.resolve("x.json").toString());
        assertEquals(2, arch.exitCode());
        assertTrue(arch.err().contains("--arch 'sparc' is not an architecture perfab knows"), arch.err());
        Cli other = run(
                "baseline",
                "seed",
                "--snapshots",
                tmp.resolve("history").toString(),
                "--anchor",
                "Hash/Sha/64",
                "-o",
                tmp.resolve("b5.json").toString());
        assertEquals(2, other.exitCode());
        assertTrue(other.err().contains("the baseline's anchor is Anchor/Loop, not Hash/Sha/64"), other.err());
        Cli excluded = run(
                "baseline",
                "seed",
                "--snapshots",
                tmp.resolve("history").toString(),
                "--anchor",
                ANCHOR,
                "--exclude",
                "Anchor",
                "-o",
                tmp.resolve("x.json").toString());
        assertEquals(2, excluded.exitCode());
        assertTrue(excluded.err().contains("the anchor Anchor/Loop is excluded by a prefix"), excluded.err());
    }

    @Test
    void theDemoPrintsTheSeedingTheDiffTheFloorAndACheck() {
        Cli demo = run("baseline", "demo", "--dir", tmp.resolve("demo").toString());
        assertEquals(0, demo.exitCode(), demo.err());
        assertTrue(demo.out().contains("perfab baseline seed: 4 tiers seeded"), demo.out());
        assertTrue(demo.out().contains("Rejected (1):"), demo.out());
        assertTrue(demo.out().contains("perfab baseline diff:"), demo.out());
        assertTrue(demo.out().contains("perfab baseline floor:"), demo.out());
        assertTrue(demo.out().contains("perfab baseline check: "), demo.out());
        assertTrue(Files.exists(tmp.resolve("demo/baseline.json")));
        Cli again = run("baseline", "demo", "--dir", tmp.resolve("demo").toString());
        assertEquals(2, again.exitCode(), "never over an earlier corpus");
    }
}
