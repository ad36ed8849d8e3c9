package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.baseline.Corpus;
import org.perfab.baseline.Ratchet;
import org.perfab.baseline.SyntheticSnapshots;
import org.perfab.model.Baseline;
import org.perfab.model.BaselineCheck;
import org.perfab.model.BaselineDiff;
import org.perfab.model.BaselineUpdate;
import org.perfab.model.Exclusions;
import org.perfab.model.Snapshot;
import org.perfab.report.BaselinePair;
import org.perfab.report.FloorTable;
import org.perfab.report.Format;
import org.perfab.report.Product;
import org.perfab.report.Products;
import org.perfab.report.testing.Golden;

/**
 * A golden file for each of the ratchet baseline's products in every format it supports, from the
 * synthetic corpus of {@code perfab baseline demo} (seeded: the same snapshots on every machine):
 * {@code baseline-NAME.EXT}, under the root locale and a decimal-comma one.
 */
@ResourceLock(Resources.LOCALE)
class BaselineGoldenTest {
    @TempDir
    static Path dir;

    /** A value of a baseline product, and the name of its golden files. */
    private record Fixture(Product<?> product, Object value) {}

    private static final Map<String, Fixture> FIXTURES = new LinkedHashMap<>();

    @BeforeAll
    static void corpus() throws IOException {
        SyntheticSnapshots.write(dir, 1);
        Exclusions ex =
                new Exclusions(List.of(SyntheticSnapshots.SUITE, SyntheticSnapshots.SUITE_COMPILE, "RemovedBenchmark"));
        Corpus corpus = Corpus.read(dir.resolve("history"), Optional.empty());
        Baseline one = corpus.seed(SyntheticSnapshots.ANCHOR, 1, Ratchet.DEFAULT_TOLERANCE, ex);
        List<Baseline.Floor> floors =
                Corpus.read(dir.resolve("control"), Optional.empty()).floors(SyntheticSnapshots.ANCHOR, ex);
        Baseline five = corpus.seed(SyntheticSnapshots.ANCHOR, 5, Ratchet.DEFAULT_TOLERANCE, ex)
                .withFloors(floors);
        Baseline.Key latest = new Baseline.Key("ubuntu-latest", "amd64");
        Snapshot regressed = Snapshot.read(Files.readString(dir.resolve("tonight/regressed.json")), "regressed.json");
        FIXTURES.put("seed", new Fixture(Products.BASELINE_SEED, five));
        FIXTURES.put(
                "check",
                new Fixture(
                        Products.BASELINE_CHECK,
                        BaselineCheck.of(
                                five,
                                regressed,
                                "tonight/regressed.json",
                                BaselineCheck.Budget.of(5),
                                ex,
                                Ratchet.DEFAULT_TOLERANCE)));
        FIXTURES.put(
                "check-auto",
                new Fixture(
                        Products.BASELINE_CHECK,
                        BaselineCheck.of(
                                five,
                                regressed,
                                "tonight/regressed.json",
                                BaselineCheck.Budget.auto(five.floor(latest).orElseThrow(), 2),
                                ex,
                                Ratchet.DEFAULT_TOLERANCE)));
        FIXTURES.put(
                "diff",
                new Fixture(
                        Products.BASELINE_DIFF, new BaselinePair(BaselineDiff.of(one, five), "window 1", "window 5")));
        FIXTURES.put("floor", new Fixture(Products.BASELINE_FLOORS, new FloorTable(floors, 2)));
        FIXTURES.put("update", new Fixture(Products.BASELINE_UPDATE, update(five, ex)));
    }

    /**
     * Ratchets {@code five} down by tonight's clean snapshot, its mixed capture (not taken), one of a
     * machine the baseline has no tier for, and an old one in which a benchmark fell twentyfold;
     * each step named by its path under the corpus.
     */
    private static BaselineUpdate update(Baseline five, Exclusions ex) throws IOException {
        Path baseline = dir.resolve("b5.json");
        Files.writeString(baseline, five.write());
        Snapshot clean = Snapshot.read(Files.readString(dir.resolve("tonight/clean.json")), "clean.json");
        String victim = clean.benchmarks().stream()
                .map(Snapshot.Benchmark::name)
                .filter(n -> !n.equals(SyntheticSnapshots.ANCHOR) && !ex.excludes(n))
                .sorted()
                .findFirst()
                .orElseThrow();
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
        Files.writeString(dir.resolve("tonight/old.json"), old.write());
        Snapshot elsewhere =
                new Snapshot("freebsd-14", "riscv64", clean.cpu(), clean.commit(), clean.date(), clean.benchmarks());
        Files.writeString(dir.resolve("tonight/elsewhere.json"), elsewhere.write());
        List<Path> snapshots = Stream.of("clean", "mixed-capture", "elsewhere", "old")
                .map(n -> dir.resolve("tonight/" + n + ".json"))
                .toList();
        BaselineUpdate u = Ratchet.update(
                        new Ratchet.Updating(
                                baseline,
                                snapshots,
                                Ratchet.DEFAULT_TOLERANCE,
                                Ratchet.DROP_TOLERANCE,
                                ex,
                                Optional.of(dir.resolve("updated.json"))),
                        (f, text) -> {
                            try {
                                Files.writeString(f, text);
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        })
                .update();
        return new BaselineUpdate(
                u.steps().stream()
                        .map(st -> new BaselineUpdate.Step(
                                dir.relativize(Path.of(st.snapshot())).toString(),
                                st.check(),
                                st.lowered(),
                                st.seeded()))
                        .toList(),
                u.tolerance(),
                u.dropTolerance());
    }

    /** Every baseline product, each once at least. */
    static Stream<Arguments> products() {
        return Stream.of("seed", "check", "check-auto", "diff", "floor", "update")
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("products")
    @SuppressWarnings("unchecked")
    void everyBaselineProductRendersEveryFormatItSupportsAsItsGoldenFile(String name) throws Exception {
        Fixture fixture = FIXTURES.get(name);
        Product<Object> product = (Product<Object>) fixture.product();
        for (Format format : product.formats()) {
            for (Locale locale : Golden.LOCALES) {
                String text = Golden.underLocale(locale, () -> product.render(fixture.value(), format));
                Golden.assertMatches("baseline-" + name + "." + extension(format), text);
            }
        }
    }

    @Test
    void everyBaselineProductHasAFixture() {
        assertEquals(
                Set.of(
                        Products.BASELINE_SEED,
                        Products.BASELINE_CHECK,
                        Products.BASELINE_DIFF,
                        Products.BASELINE_FLOORS,
                        Products.BASELINE_UPDATE),
                FIXTURES.values().stream().map(Fixture::product).collect(Collectors.toSet()));
    }

    private static String extension(Format f) {
        return switch (f) {
            case TEXT -> "txt";
            case MARKDOWN -> "md";
            case JSON -> "json";
            case GITHUB -> "github.txt";
            case CSV -> "csv";
            case HTML, JUNIT -> throw new AssertionError("no baseline product writes " + f.id());
        };
    }
}
