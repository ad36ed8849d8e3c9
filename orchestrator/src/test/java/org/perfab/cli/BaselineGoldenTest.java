package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    private record Fixture(Product<?> product, Object value) {
    }

    private static final Map<String, Fixture> FIXTURES = new LinkedHashMap<>();

    @BeforeAll
    static void corpus() throws IOException {
        SyntheticSnapshots.write(dir, 1);
        Exclusions ex = new Exclusions(List.of(SyntheticSnapshots.SUITE, SyntheticSnapshots.SUITE_COMPILE,
                "RemovedBenchmark"));
        Corpus corpus = Corpus.read(dir.resolve("history"), Optional.empty());
        Baseline one = corpus.seed(SyntheticSnapshots.ANCHOR, 1, Ratchet.DEFAULT_TOLERANCE, ex);
        List<Baseline.Floor> floors = Corpus.read(dir.resolve("control"), Optional.empty())
                .floors(SyntheticSnapshots.ANCHOR, ex);
        Baseline five = corpus.seed(SyntheticSnapshots.ANCHOR, 5, Ratchet.DEFAULT_TOLERANCE, ex)
                .withFloors(floors);
        Baseline.Key latest = new Baseline.Key("ubuntu-latest", "amd64");
        Snapshot regressed = Snapshot.read(Files.readString(dir.resolve("tonight/regressed.json")),
                "regressed.json");
        FIXTURES.put("seed", new Fixture(Products.BASELINE_SEED, five));
        FIXTURES.put("check", new Fixture(Products.BASELINE_CHECK, BaselineCheck.of(five, regressed,
                "tonight/regressed.json", BaselineCheck.Budget.of(5), ex, Ratchet.DEFAULT_TOLERANCE)));
        FIXTURES.put("check-auto", new Fixture(Products.BASELINE_CHECK, BaselineCheck.of(five, regressed,
                "tonight/regressed.json", BaselineCheck.Budget.auto(five.floor(latest).orElseThrow(), 2), ex,
                Ratchet.DEFAULT_TOLERANCE)));
        FIXTURES.put("diff", new Fixture(Products.BASELINE_DIFF, new BaselinePair(BaselineDiff.of(one, five),
                "window 1", "window 5")));
        FIXTURES.put("floor", new Fixture(Products.BASELINE_FLOORS, new FloorTable(floors, 2)));
    }

    /** Every baseline product, each once at least. */
    static Stream<Arguments> products() {
        return Stream.of("seed", "check", "check-auto", "diff", "floor").map(Arguments::of);
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
        assertEquals(Set.of(Products.BASELINE_SEED, Products.BASELINE_CHECK, Products.BASELINE_DIFF,
                Products.BASELINE_FLOORS), FIXTURES.values().stream().map(Fixture::product).collect(Collectors.toSet()));
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
