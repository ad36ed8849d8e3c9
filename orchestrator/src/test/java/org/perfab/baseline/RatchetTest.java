package org.perfab.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.failure.BadInputException;
import org.perfab.model.Baseline;
import org.perfab.model.BaselineCheck;
import org.perfab.model.BaselineUpdate;
import org.perfab.model.Exclusions;
import org.perfab.model.Snapshot;

/**
 * {@link Ratchet}'s rules that the command line does not show directly: where the anchor comes
 * from, what is written and when, which snapshots an update takes, and where a snapshot's commit
 * comes from. On the synthetic corpus of {@link SyntheticSnapshots}.
 */
class RatchetTest {
    private static final String ANCHOR = SyntheticSnapshots.ANCHOR;

    @TempDir
    Path tmp;

    /** Every file written, in order. */
    private final List<Path> written = new ArrayList<>();

    private final BiConsumer<Path, String> write = (file, text) -> {
        written.add(file);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    };

    @BeforeEach
    void corpus() throws IOException {
        SyntheticSnapshots.write(tmp, 1);
    }

    private Ratchet.Seeded seed(Optional<String> anchor, Optional<String> arch, Exclusions exclusions, Path output) {
        return Ratchet.seed(
                new Ratchet.Seeding(
                        tmp.resolve("history"), anchor, 5, Ratchet.DEFAULT_TOLERANCE, arch, exclusions, output),
                write);
    }

    private static Baseline read(Path file) throws IOException {
        return Baseline.read(Files.readString(file), file.toString());
    }

    @Test
    void theAnchorComesFromTheBaselineBeingSeededWhenNoneIsGiven() throws IOException {
        Path b = tmp.resolve("b.json");
        Ratchet.BadAnchorException none = assertThrows(
                Ratchet.BadAnchorException.class, () -> seed(Optional.empty(), Optional.empty(), Exclusions.none(), b));
        assertEquals("--anchor NAME is needed: " + b + " does not exist yet", none.getMessage());
        assertEquals(List.of(), written);
        seed(Optional.of(ANCHOR), Optional.of("arm64"), Exclusions.none(), b);
        Ratchet.Seeded again = seed(Optional.empty(), Optional.of("amd64"), Exclusions.none(), b);
        assertEquals(ANCHOR, again.seeded().anchor());
        assertEquals(4, read(b).tiers().size(), "the arm64 tiers kept, the amd64 ones added");
        Ratchet.BadAnchorException excluded = assertThrows(
                Ratchet.BadAnchorException.class,
                () -> seed(Optional.empty(), Optional.empty(), new Exclusions(List.of("Anchor/")), b));
        assertEquals("the anchor " + ANCHOR + " is excluded by a prefix", excluded.getMessage());
    }

    @Test
    void seedingNoTierLeavesTheBaselineAsItWas() {
        Ratchet.Seeded none =
                seed(Optional.of(ANCHOR), Optional.of("riscv64"), Exclusions.none(), tmp.resolve("b.json"));
        assertTrue(none.written().isEmpty());
        assertTrue(none.noSnapshot(), "no snapshot of riscv64 in the folder");
        assertEquals(List.of(), written);
        assertFalse(Files.exists(tmp.resolve("b.json")));
    }

    @Test
    void anUpdateTakesNothingFromAnUnknownTierOrFromRatiosThatMovedTogether() throws IOException {
        Path arm = tmp.resolve("arm.json");
        seed(Optional.of(ANCHOR), Optional.of("arm64"), Exclusions.none(), arm);
        Path all = tmp.resolve("all.json");
        seed(Optional.of(ANCHOR), Optional.empty(), Exclusions.none(), all);
        List<Path> tonight = List.of(tmp.resolve("tonight/clean.json"), tmp.resolve("tonight/mixed-capture.json"));
        Ratchet.Updated unknown = Ratchet.update(
                new Ratchet.Updating(
                        arm,
                        tonight,
                        Ratchet.DEFAULT_TOLERANCE,
                        Ratchet.DROP_TOLERANCE,
                        Exclusions.none(),
                        Optional.of(tmp.resolve("arm-updated.json"))),
                write);
        assertFalse(unknown.update().steps().get(0).check().known());
        assertEquals(0, unknown.update().lowered());
        assertEquals(read(arm).entries(), read(tmp.resolve("arm-updated.json")).entries());
        Ratchet.Updated updated = Ratchet.update(
                new Ratchet.Updating(
                        all,
                        tonight,
                        Ratchet.DEFAULT_TOLERANCE,
                        Ratchet.DROP_TOLERANCE,
                        Exclusions.none(),
                        Optional.empty()),
                write);
        BaselineUpdate.Step clean = updated.update().steps().get(0);
        BaselineUpdate.Step mixed = updated.update().steps().get(1);
        assertTrue(clean.lowered().size() > 10, "lowered " + clean.lowered());
        assertTrue(mixed.check().incoherent());
        assertEquals(List.of(), mixed.lowered(), "a capture whose anchor caught a tail changes nothing");
        assertEquals(clean.lowered().size(), updated.update().lowered());
        assertEquals(Optional.empty(), clean.seeded(), "tonight is newer than the window");
        assertEquals(all, updated.written(), "rewritten in place without an output");
        assertEquals(updated.baseline(), read(all));
    }

    @Test
    void anUpdateNamesASnapshotOlderThanTheWindowAndAFloorThatFellPastTheTolerance() throws IOException {
        Path all = tmp.resolve("all.json");
        seed(Optional.of(ANCHOR), Optional.empty(), Exclusions.none(), all);
        Snapshot clean = Snapshot.read(Files.readString(tmp.resolve("tonight/clean.json")), "clean.json");
        Baseline.Entry entry = read(all).entries().stream()
                .filter(e -> e.key().machine().equals(clean.machine())
                        && !e.benchmark().equals(ANCHOR)
                        && clean.benchmark(e.benchmark()).isPresent())
                .findFirst()
                .orElseThrow();
        String victim = entry.benchmark();
        Snapshot old = new Snapshot(
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
        Path file = tmp.resolve("old.json");
        Files.writeString(file, old.write());
        BaselineUpdate.Step step = Ratchet.update(
                        new Ratchet.Updating(
                                all,
                                List.of(file),
                                Ratchet.DEFAULT_TOLERANCE,
                                Ratchet.DROP_TOLERANCE,
                                Exclusions.none(),
                                Optional.empty()),
                        write)
                .update()
                .steps()
                .get(0);
        LocalDate newest = read(all).tier(step.check().key()).orElseThrow().date();
        assertEquals(Optional.of(newest), step.seeded());
        assertTrue(step.beyond(Ratchet.DEFAULT_TOLERANCE).size() > 1, "a noisy night lowers floors past 5%");
        List<BaselineUpdate.Lowered> fell = step.beyond(Ratchet.DROP_TOLERANCE);
        assertEquals(1, fell.size(), "only the benchmark divided by 20 fell past a halving: " + fell);
        assertEquals(victim, fell.get(0).benchmark());
        assertEquals(entry.ratio(), fell.get(0).from());
        assertTrue(fell.get(0).drop() > 90, fell.get(0) + " fell about 95%");
    }

    @ParameterizedTest
    @CsvSource({
        "-1, false, NaN",
        "Infinity, false, NaN",
        "NaN, false, NaN",
        "NaN, true, 0",
        "NaN, true, -2",
        "NaN, true, Infinity"
    })
    void aBudgetIsAPercentageAtLeastZeroOrAMultipleAboveZero(double percent, boolean auto, double multiple) {
        assertThrows(IllegalArgumentException.class, () -> new Ratchet.Allowance(percent, auto, multiple));
    }

    @Test
    void anAutomaticBudgetNeedsAMeasuredFloorAndMultipliesIt() {
        Path b = tmp.resolve("b.json");
        seed(Optional.of(ANCHOR), Optional.empty(), Exclusions.none(), b);
        Ratchet.Checking auto = new Ratchet.Checking(
                b,
                tmp.resolve("tonight/clean.json"),
                Ratchet.Allowance.auto(3),
                Exclusions.none(),
                Ratchet.DEFAULT_TOLERANCE);
        BadInputException none = assertThrows(BadInputException.class, () -> Ratchet.check(auto));
        assertTrue(
                none.getMessage().startsWith(b + ": no measured floor for ubuntu-latest (amd64)"), none.getMessage());
        Ratchet.Floored nothing = Ratchet.floor(
                new Ratchet.Flooring(
                        tmp.resolve("control"),
                        Optional.of("Nope"),
                        Optional.empty(),
                        Optional.empty(),
                        Exclusions.none()),
                write);
        assertTrue(nothing.floors().isEmpty() && nothing.stored().isEmpty());
        written.clear();
        Ratchet.Floored floored = Ratchet.floor(
                new Ratchet.Flooring(
                        tmp.resolve("control"), Optional.empty(), Optional.empty(), Optional.of(b), Exclusions.none()),
                write);
        assertEquals(ANCHOR, floored.anchor(), "the baseline's");
        assertEquals(Optional.of(b), floored.stored());
        assertEquals(List.of(b), written);
        Baseline.Floor latest = floored.floors().stream()
                .filter(f -> f.key().machine().equals("ubuntu-latest"))
                .findFirst()
                .orElseThrow();
        BaselineCheck c = Ratchet.check(auto);
        assertEquals(3 * latest.p95(), c.budget().percent(), 1e-12);
        assertEquals(Optional.of(latest), c.budget().floor());
    }

    @Test
    void aToolsOutputIsFiledUnderGithubsCommitAndTheSameSnapshotIsNotWrittenAgain() throws IOException {
        Path bench = tmp.resolve("bench.txt");
        Files.writeString(bench, """
                goarch: arm64
                cpu: Neoverse-N2
                BenchmarkAnchor/loop-4    \t 1000000\t      1000 ns/op
                BenchmarkParse/small-4    \t  500000\t      2500 ns/op
                """);
        Ratchet.Snapshotting request = new Ratchet.Snapshotting(
                new Ratchet.ToolOutput(bench, Optional.empty()),
                new SnapshotSources.Stamp(
                        "ubuntu-24.04-arm",
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        LocalDate.of(2026, 8, 7)),
                Optional.empty(),
                Optional.of(tmp.resolve("snaps")),
                false,
                Map.of("GITHUB_SHA", "c9bf9335d100aa00b548b70eae6215d4486828b5"));
        Ratchet.Snapped first = Ratchet.snapshot(request, write);
        Path file = tmp.resolve("snaps/2026-08-07-c9bf9335d100-ubuntu-24-04-arm.json");
        assertEquals(Optional.of(file), first.filed());
        assertFalse(first.already());
        assertEquals(
                "c9bf9335d100aa00b548b70eae6215d4486828b5",
                first.made().snapshot().commit());
        assertEquals(List.of(file), written);
        Ratchet.Snapped again = Ratchet.snapshot(request, write);
        assertTrue(again.already());
        assertEquals(List.of(file), written, "not written again");
        Ratchet.Snapped printed = Ratchet.snapshot(
                new Ratchet.Snapshotting(
                        request.source(), request.stamp(), Optional.empty(), Optional.empty(), false, Map.of()),
                write);
        assertEquals(Optional.empty(), printed.filed());
        assertEquals("", printed.made().snapshot().commit(), "no commit given, none in the environment");
    }
}
