package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.failure.BadInputException;
import org.perfab.stats.RatioSpace;

/** Snapshots and their names, baselines and their files, and a check, an update and a diff in ratio space. */
class BaselineModelTest {
    private static final LocalDate DAY = LocalDate.of(2026, 8, 7);
    private static final Baseline.Key AMD = new Baseline.Key("ubuntu-latest", "amd64");
    private static final Baseline.Key ARM = new Baseline.Key("macos-14", "arm64");

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            nullValues = "none",
            value = {
                "2026-08-07-c9bf9335d100-ubuntu-latest.json, 2026-08-07, c9bf9335d100, ubuntu-latest, none",
                "2026-08-07-c9bf933-linux-amd64-epyc-9v74.json, 2026-08-07, c9bf933, linux-amd64-epyc-9v74, amd64",
                "2026-08-07-c9bf9335d100-ubuntu-24-04-arm.json, 2026-08-07, c9bf9335d100, ubuntu-24-04-arm, none",
                "2026-08-07-c9bf9335d100-mac-arm64-m3.json, 2026-08-07, c9bf9335d100, mac-arm64-m3, arm64",
                "2026-08-07-c9bf9335d100-epyc_x86_64.json, 2026-08-07, c9bf9335d100, epyc_x86_64, amd64",
                "2026-08-07-c9bf9335d100-aarch64box.json, 2026-08-07, c9bf9335d100, aarch64box, none",
            })
    void parsesASnapshotsNameWithOneAnchoredPattern(String name, String date, String commit, String slug, String arch) {
        Snapshot.Name n = Snapshot.parseName(name).orElseThrow();
        assertEquals(LocalDate.parse(date), n.date());
        assertEquals(commit, n.commit());
        assertEquals(slug, n.slug());
        assertEquals(Optional.ofNullable(arch), n.arch());
    }

    @ParameterizedTest
    @CsvSource({
        "ubuntu-latest-baseline.json",
        "2026-08-07_ubuntu.json",
        "2026-08-07-c9bf9335d100.json",
        "2026-08-07-C9BF9335D100-ubuntu.json",
        "2026-08-07-c9bf93-ubuntu.json",
        "2026-13-07-c9bf9335d100-ubuntu.json",
        "2026-08-07-c9bf9335d100-ubuntu.json.bak",
        "x2026-08-07-c9bf9335d100-ubuntu.json",
        "2026-08-07-c9bf9335d100-Ubuntu.json",
        "2026-08-07-c9bf9335d100-ubuntu-.json"
    })
    void refusesNamesThatAreNotASnapshots(String name) {
        assertEquals(Optional.empty(), Snapshot.parseName(name));
    }

    /** The quiet benchmarks Q1 to Q5 every snapshot and baseline here has, at ratios 1 to 5. */
    private static final List<String> QUIET = List.of("Q1", "Q2", "Q3", "Q4", "Q5");

    /**
     * A snapshot: the anchor at {@code anchor}, {@code others} as given, and Q1 to Q5 at 100, 200,
     * ... 500 times {@code host}: on their floors when the anchor is {@code 100 * host}.
     */
    private static Snapshot snapshot(
            String machine, String arch, double anchor, double host, Map<String, Double> others) {
        List<Snapshot.Benchmark> b = new ArrayList<>();
        b.add(new Snapshot.Benchmark("Anchor", anchor, "ns/op", OptionalLong.of(1000)));
        others.forEach((n, v) -> b.add(new Snapshot.Benchmark(n, v, "ns/op", OptionalLong.empty())));
        for (int i = 0; i < QUIET.size(); i++) {
            b.add(new Snapshot.Benchmark(QUIET.get(i), 100 * (i + 1) * host, "ns/op", OptionalLong.empty()));
        }
        return new Snapshot(machine, arch, "AMD EPYC 7763", "c9bf9335d100aa00b548b70eae6215d4486828b5", DAY, b);
    }

    @Test
    void aSnapshotsFileRoundTripsAndItsNameIsMadeFromItsContent() {
        Snapshot s = snapshot("Ubuntu Latest / 8 cores", "x86_64", 100, 1, Map.of("Parse", 250.5));
        assertEquals("amd64", s.arch(), "architectures are named as Go names them");
        assertEquals(s, Snapshot.read(s.write(), "s.json"));
        assertEquals("2026-08-07-c9bf9335d100-ubuntu-latest-8-cores.json", s.fileName());
        assertEquals(
                "ubuntu-latest-8-cores",
                Snapshot.parseName(s.fileName()).orElseThrow().slug());
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"schema\": \"perfab/snapshot/v1\", \"machine\": \"m\", \"arch\": \"sparc\", \"cpu\": \"c\", \"commit\": \"\","
                        + " \"date\": \"2026-08-07\", \"benchmarks\": []} | s.json: field 'arch': 'sparc' is not an architecture",
                "{\"schema\": \"perfab/snapshot/v1\", \"machine\": \"m\", \"arch\": \"amd64\", \"cpu\": \"c\", \"commit\": \"\","
                        + " \"date\": \"2026-08-07\", \"benchmarks\": [{\"name\": \"a\", \"value\": -1, \"unit\": \"ns/op\"}]}"
                        + " | s.json: field 'benchmarks[0].value': the value of a must be finite and above 0",
                "{\"schema\": \"perfab/snapshot/v1\", \"machine\": \"m\", \"arch\": \"amd64\", \"cpu\": \"c\", \"commit\": \"\","
                        + " \"date\": \"2026-08-07\", \"benchmarks\": [{\"name\": \"a\", \"value\": 1, \"unit\": \"ns/op\"},"
                        + " {\"name\": \"a\", \"value\": 2, \"unit\": \"ns/op\"}]} | s.json: field 'benchmarks': benchmark a is there"
                        + " twice",
                "{\"schema\": \"perfab/snapshot/v1\", \"machine\": \"m\", \"arch\": \"amd64\", \"cpu\": \"c\", \"commit\": \"\","
                        + " \"date\": \"08/07/2026\", \"benchmarks\": []} | s.json: field 'date'",
                "{\"schema\": \"perfab/snapshot/v1\", \"machine\": \"m\", \"arch\": \"amd64\", \"cpu\": \"c\", \"commit\": \"\","
                        + " \"date\": \"2026-08-07\", \"benchmarks\": [], \"extra\": 1} | s.json: field 'extra': unknown field",
                "{\"schema\": \"perfab/results/v3\"} | s.json: schema 'perfab/results/v3' is not perfab/snapshot/v1",
                "{\"schema\": \"perfab/snapshot/v1\", | s.json:1:",
            })
    void aBadSnapshotFileNamesTheFieldThatIsWrong(String text, String message) {
        BadInputException e = assertThrows(BadInputException.class, () -> Snapshot.read(text, "s.json"));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    /** A baseline of one tier: Anchor at 100, Parse at ratio 2.5, Encode at 0.5, Q1 to Q5 at 1 to 5. */
    private static Baseline baseline(Baseline.Key key) {
        Baseline.Tier tier = new Baseline.Tier(
                key,
                100,
                "ns/op",
                5,
                List.of(new Baseline.Member("s.json", RatioSpace.Fate.ACCEPTED, 0, 0)),
                List.of("AMD EPYC 7763"),
                DAY);
        List<Baseline.Entry> entries = new ArrayList<>(List.of(
                new Baseline.Entry(key, "Anchor", 100, "ns/op", 1, 5, OptionalLong.of(1000), "seed"),
                new Baseline.Entry(key, "Encode", 50, "ns/op", 0.5, 5, OptionalLong.empty(), "seed"),
                new Baseline.Entry(key, "Parse", 250, "ns/op", 2.5, 5, OptionalLong.empty(), "seed")));
        for (int i = 0; i < QUIET.size(); i++) {
            entries.add(new Baseline.Entry(
                    key, QUIET.get(i), 100 * (i + 1), "ns/op", i + 1, 5, OptionalLong.empty(), "seed"));
        }
        return new Baseline("Anchor", List.of(tier), entries, Baseline.Seeding.empty(), List.of());
    }

    @Test
    void aBaselineFileRoundTrips() {
        Baseline b = baseline(AMD)
                .with(baseline(ARM))
                .withFloors(List.of(
                        new Baseline.Floor(AMD, 6, 15, 30, 1, 2, 3, 4, 5, DAY, Map.of("Parse", 2.5, "Encode", 0.4))));
        Baseline back = Baseline.read(b.write(), "b.json");
        assertEquals(b, back);
        assertEquals(b.write(), back.write());
    }

    @Test
    void seedingOneTierNeverTouchesAnotherArchitecturesFloors() {
        Baseline.Key amdOnMac = new Baseline.Key("macos-14", "amd64");
        Baseline both = baseline(ARM).with(baseline(AMD));
        Baseline reseeded = both.with(baseline(amdOnMac));
        assertEquals(both.entries(ARM), reseeded.entries(ARM), "same machine key, other architecture: kept");
        assertEquals(both.entries(AMD), reseeded.entries(AMD));
        assertEquals(3, reseeded.tiers().size());
        Baseline other = new Baseline("Other", List.of(), List.of(), Baseline.Seeding.empty(), List.of());
        assertThrows(IllegalArgumentException.class, () -> both.with(other), "two anchors cannot share a file");
    }

    @Test
    void checksInRatioSpaceSoAFastHostTripsNothing() {
        Baseline b = baseline(AMD);
        Snapshot fast = snapshot("ubuntu-latest", "amd64", 77.6, 0.776, Map.of("Parse", 194.0, "Encode", 38.8));
        BaselineCheck c = BaselineCheck.of(b, fast, "fast.json", BaselineCheck.Budget.of(5), Exclusions.none(), 5);
        assertEquals(8, c.count(BaselineCheck.Status.OK), c.rows().toString());
        assertEquals(-22.4, c.hostSpeed(), 1e-9);
        assertEquals(0, c.offset(), 1e-9);
        assertFalse(c.incoherent());
    }

    @Test
    void aFewBenchmarksMovingTogetherAreTheirOwnNoiseNotTheAnchors() {
        Baseline small = new Baseline(
                "Anchor",
                baseline(AMD).tiers(),
                baseline(AMD).entries().stream()
                        .filter(e -> !QUIET.contains(e.benchmark()))
                        .toList(),
                Baseline.Seeding.empty(),
                List.of());
        Snapshot s = new Snapshot(
                "ubuntu-latest",
                "amd64",
                "c",
                "",
                DAY,
                List.of(
                        new Snapshot.Benchmark("Anchor", 120, "ns/op", OptionalLong.empty()),
                        new Snapshot.Benchmark("Parse", 250, "ns/op", OptionalLong.empty()),
                        new Snapshot.Benchmark("Encode", 50, "ns/op", OptionalLong.empty())));
        BaselineCheck c = BaselineCheck.of(small, s, "s.json", BaselineCheck.Budget.of(5), Exclusions.none(), 5);
        assertTrue(Double.isNaN(c.offset()), "two benchmarks: under " + RatioSpace.MIN_SHARED);
        assertFalse(c.incoherent());
    }

    @Test
    void saysRegressedNewAndMissingAndOrdersThem() {
        Snapshot s = snapshot("ubuntu-latest", "amd64", 100, 1, Map.of("Parse", 263.0, "Fresh", 10.0));
        BaselineCheck c =
                BaselineCheck.of(baseline(AMD), s, "s.json", BaselineCheck.Budget.of(5), Exclusions.none(), 5);
        assertEquals(
                List.of("Parse", "Encode", "Fresh", "Anchor", "Q1"),
                c.rows().stream().limit(5).map(BaselineCheck.Row::benchmark).toList());
        assertEquals(
                List.of(
                        BaselineCheck.Status.REGRESSED,
                        BaselineCheck.Status.MISSING,
                        BaselineCheck.Status.NEW,
                        BaselineCheck.Status.OK),
                c.rows().stream().limit(4).map(BaselineCheck.Row::status).toList());
        assertEquals(5.2, c.rows().get(0).change(), 1e-9);
        BaselineCheck wider =
                BaselineCheck.of(baseline(AMD), s, "s.json", BaselineCheck.Budget.of(5.2 + 1e-9), Exclusions.none(), 5);
        assertEquals(0, wider.count(BaselineCheck.Status.REGRESSED), "the budget itself is within budget");
    }

    @Test
    void anAutoBudgetIsEachBenchmarksOwnFloorNeverUnderTheTiersMedian() {
        Baseline.Floor floor =
                new Baseline.Floor(AMD, 6, 15, 30, 1.0, 8, 10, 20, 30, DAY, Map.of("Parse", 4.0, "Encode", 0.2));
        BaselineCheck.Budget auto = BaselineCheck.Budget.auto(floor, 2);
        assertEquals(8.0, auto.of("Parse"), 1e-12, "2 x its own 4%");
        assertEquals(2.0, auto.of("Encode"), 1e-12, "2 x the tier's median 1%, not 2 x its own 0.2%");
        assertEquals(20.0, auto.of("Fresh"), 1e-12, "2 x the tier's 95th percentile without a figure of its own");
        assertEquals(5.0, BaselineCheck.Budget.of(5).of("Parse"));
        Snapshot s = snapshot("ubuntu-latest", "amd64", 100, 1, Map.of("Parse", 275.0, "Encode", 52.0));
        BaselineCheck c = BaselineCheck.of(baseline(AMD), s, "s.json", auto, Exclusions.none(), 5);
        Map<String, BaselineCheck.Status> status = new HashMap<>();
        c.rows().forEach(r -> status.put(r.benchmark(), r.status()));
        assertEquals(BaselineCheck.Status.REGRESSED, status.get("Parse"), "+10% past its 8%");
        assertEquals(BaselineCheck.Status.REGRESSED, status.get("Encode"), "+4% past its 2%");
    }

    @Test
    void aSnapshotWithoutTheAnchorCannotBeChecked() {
        Snapshot s = new Snapshot(
                "ubuntu-latest",
                "amd64",
                "c",
                "",
                DAY,
                List.of(new Snapshot.Benchmark("Parse", 1, "ns/op", OptionalLong.empty())));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> BaselineCheck.of(baseline(AMD), s, "s.json", BaselineCheck.Budget.of(5), Exclusions.none(), 5));
        assertTrue(e.getMessage().contains("s.json has no benchmark Anchor, the baseline's anchor"), e.getMessage());
    }

    @Test
    void ratchetsDownOnlyWhereARunHeldBelowAndNeverFromAMixedCapture() {
        Baseline b = baseline(AMD);
        Snapshot good = snapshot("ubuntu-latest", "amd64", 90, 0.9, Map.of("Parse", 216.0, "Encode", 46.8));
        BaselineCheck c = BaselineCheck.of(b, good, "good.json", BaselineCheck.Budget.of(0), Exclusions.none(), 5);
        List<Baseline.Entry> down = c.ratcheted(b);
        assertEquals(1, down.size(), down.toString());
        Baseline.Entry parse = down.get(0);
        assertEquals("Parse", parse.benchmark());
        assertEquals(2.4, parse.ratio(), 1e-12);
        assertEquals(
                parse.ratio(),
                parse.value() / b.tier(AMD).orElseThrow().anchorValue(),
                1e-12,
                "ratio == value / anchor by construction");
        assertEquals("good.json", parse.setBy());
        Snapshot mixed = snapshot("ubuntu-latest", "amd64", 120, 1, Map.of("Parse", 250.0, "Encode", 50.0));
        BaselineCheck m = BaselineCheck.of(b, mixed, "mixed.json", BaselineCheck.Budget.of(0), Exclusions.none(), 5);
        assertTrue(m.incoherent(), "every ratio 17% low together");
        assertEquals(List.of(), m.ratcheted(b));
    }

    @Test
    void everyMatchingExclusionPrefixIsLive() {
        Exclusions ex = new Exclusions(List.of("ClojureTestSuite", "ClojureTestSuiteCompileAndRun", "Gone"));
        List<String> names = List.of("ClojureTestSuite/basic", "ClojureTestSuiteCompileAndRun/x", "Parse");
        assertEquals(List.of("ClojureTestSuite", "ClojureTestSuiteCompileAndRun"), ex.live(names));
        assertEquals(List.of("Gone"), ex.stale(names));
        assertTrue(ex.excludes("ClojureTestSuiteCompileAndRun/x"));
        assertFalse(ex.excludes("Parse"));
        assertEquals(
                List.of("a", "b"), Exclusions.parse("# prefixes\n a \n\nb\na\n").prefixes());
        assertThrows(IllegalArgumentException.class, () -> new Exclusions(List.of("")));
    }

    @Test
    void diffCountsTheShareOfFloorsPastEachThreshold() {
        Baseline a = baseline(AMD);
        Baseline b = a.withEntries(List.of(
                new Baseline.Entry(AMD, "Parse", 300, "ns/op", 3.0, 5, OptionalLong.empty(), "seed"),
                new Baseline.Entry(AMD, "Encode", 53, "ns/op", 0.53, 5, OptionalLong.empty(), "seed")));
        BaselineDiff d = BaselineDiff.of(a, b);
        assertEquals(
                List.of("Parse", "Encode", "Anchor"),
                d.rows().stream().limit(3).map(BaselineDiff.Row::benchmark).toList());
        BaselineDiff.Share all = d.tiers().get(d.tiers().size() - 1);
        assertEquals(Optional.empty(), all.key());
        assertEquals(8, all.floors());
        assertEquals(List.of(2, 1, 0), all.past(), "+20% and +6% past 5%; +20% past 10%; none past 25%");
    }
}
