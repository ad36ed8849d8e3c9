package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.model.Bisection;
import org.perfab.model.CellId;
import org.perfab.model.Measurement;
import org.perfab.model.NoiseFile;
import org.perfab.model.RunResults;
import org.perfab.model.RunnerTable;
import org.perfab.model.Series;
import org.perfab.model.SeriesCheck;
import org.perfab.model.SeriesCuration;
import org.perfab.model.SeriesFile;
import org.perfab.model.SeriesImport;
import org.perfab.model.SeriesNoiseTable;
import org.perfab.model.SeriesReplay;
import org.perfab.model.Sizing;
import org.perfab.report.testing.Golden;
import org.perfab.stats.NoiseFloor;
import org.perfab.stats.SeriesRules;

/**
 * A golden file for every product perfab renders in every format it supports, under the root
 * locale and a decimal-comma one: {@code product-NAME.EXT}. A product given a new format fails
 * here until its golden file is written ({@code -Dgolden.update=true}). The baseline's products,
 * whose fixtures are the orchestrator's synthetic corpus, have theirs beside that corpus.
 */
@ResourceLock(Resources.LOCALE)
class ProductGoldenTest {
    /** A value of a product, and the name of its golden files. */
    private record Fixture(String name, Product<?> product, Object value) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Every fixture: each product here at least once, the A/B of a run and of two files. */
    private static final List<Fixture> FIXTURES = List.of(
            new Fixture("ab-run", Products.AB, Report.of(RunFixture.broker())),
            new Fixture("ab-files", Products.AB, Report.of(RenderersTest.fixture())),
            new Fixture("ab-pairs", Products.AB, Report.of(RunFixture.drifting())),
            new Fixture("ab-stopped", Products.AB, Report.of(RunFixture.bitset())),
            new Fixture("runners", Products.RUNNERS, runners()),
            new Fixture("bisect", Products.BISECT, bisection()),
            new Fixture(
                    "series-check",
                    Products.SERIES_CHECK,
                    SeriesCheck.of(series(), "run-9", SeriesRules.Options.DEFAULT)),
            new Fixture(
                    "series-rebased",
                    Products.SERIES_CHECK,
                    SeriesCheck.of(rebased(), "run-9", SeriesRules.Options.DEFAULT)),
            new Fixture(
                    "series-replay",
                    Products.SERIES_REPLAY,
                    SeriesReplay.of(
                            series(),
                            List.of(
                                    SeriesRules.Options.DEFAULT,
                                    SeriesRules.Options.parse("step=15,noise=0,drift=off")),
                            List.of(new SeriesReplay.Watch("stepped", Optional.of(LocalDate.of(2026, 9, 9)))))),
            new Fixture(
                    "series-replay-curated",
                    Products.SERIES_REPLAY,
                    SeriesReplay.of(series(), List.of(SeriesRules.Options.DEFAULT), List.of())
                            .with(new SeriesCuration(
                                    Optional.of("main"),
                                    11,
                                    List.of(
                                            new SeriesCuration.Dropped(
                                                    "8812",
                                                    LocalDate.of(2026, 9, 3),
                                                    "3f9c1e0a77d2",
                                                    SeriesCuration.Reason.OFF_REF,
                                                    3),
                                            new SeriesCuration.Dropped(
                                                    RunFixture.HOSTILE,
                                                    LocalDate.of(2026, 9, 6),
                                                    "",
                                                    SeriesCuration.Reason.NO_COMMIT,
                                                    3))))),
            new Fixture("series-import", Products.SERIES_IMPORT, seriesImport()),
            new Fixture("series-noise", Products.SERIES_NOISE, SeriesNoiseTable.of(series(), 5, key -> true)),
            new Fixture("plan", Products.SIZING, sizing()));

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (Fixture fixture : FIXTURES) {
            for (Format f : fixture.product().formats()) {
                for (Locale locale : Golden.LOCALES) {
                    all.add(Arguments.of(fixture, f, locale));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} as {1} under {2}")
    @MethodSource("cases")
    @SuppressWarnings("unchecked")
    void everyProductRendersEveryFormatItSupportsAsItsGoldenFile(Fixture fixture, Format format, Locale locale)
            throws Exception {
        Product<Object> p = (Product<Object>) fixture.product();
        Golden.assertMatches(
                fixture.name() + "." + extension(format),
                Golden.underLocale(locale, () -> p.render(fixture.value(), format)));
    }

    @Test
    void everyProductHereHasAFixture() {
        List<Product<?>> covered =
                FIXTURES.stream().map(Fixture::product).distinct().toList();
        assertEquals(
                List.of(
                        Products.AB,
                        Products.RUNNERS,
                        Products.BISECT,
                        Products.SERIES_CHECK,
                        Products.SERIES_REPLAY,
                        Products.SERIES_IMPORT,
                        Products.SERIES_NOISE,
                        Products.SIZING),
                covered);
    }

    @Test
    void theAbTableSupportsEveryFormat() {
        assertEquals(List.of(Format.values()), Products.AB.formats());
    }

    @Test
    void anUnsupportedFormatNamesTheSupportedOnes() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Products.RUNNERS.renderer(Format.HTML, false));
        assertEquals("perfab runners writes text, json, markdown or csv, not html", e.getMessage());
    }

    @Test
    void stepOutputsKeepTheNamesWorkflowsRead() {
        assertEquals(
                List.of("regressions", "inconclusive", "small", "improvements", "noisy"),
                List.copyOf(Products.AB.outputs(Report.of(RunFixture.broker())).keySet()));
        SeriesCheck check = SeriesCheck.of(series(), "run-9", SeriesRules.Options.DEFAULT);
        assertEquals(Map.of("new", "2", "persisting", "0", "rebased", "0"), Products.SERIES_CHECK.outputs(check));
        assertTrue(Products.RUNNERS.outputs(runners()).isEmpty());
        assertEquals(
                List.of("added", "already", "conflicting", "dropped"),
                List.copyOf(Products.SERIES_IMPORT.outputs(seriesImport()).keySet()));
    }

    static String extension(Format f) {
        return switch (f) {
            case TEXT -> "txt";
            case MARKDOWN -> "md";
            case JSON -> "json";
            case GITHUB -> "github.txt";
            case HTML -> "html";
            case CSV -> "csv";
            case JUNIT -> "junit.xml";
        };
    }

    /**
     * A wiki's history folded into a series: readings added, one already there, 23 whose ratio
     * differs (24: more than the text shows), the first of a hostile key, and two runs left out.
     */
    static SeriesImport seriesImport() {
        String hostile = "\"" + RunFixture.HOSTILE.replace("\"", "\"\"") + "\"";
        StringBuilder own =
                new StringBuilder("date,run,commit,cpu,key,ratio\n2026-09-01,run-0,c0,Xeon," + hostile + ",1.9\n");
        StringBuilder wiki = new StringBuilder(
                "date,run,commit,cpu,key,ratio,base\n2026-09-01,run-0,c0,Xeon," + hostile + ",2.0,v1\n");
        for (int i = 0; i < 23; i++) {
            own.append("2026-09-0")
                    .append(1 + i % 3)
                    .append(",run-")
                    .append(i % 3)
                    .append(",c")
                    .append(i % 3)
                    .append(",Xeon,parse/")
                    .append(i)
                    .append(',')
                    .append(1 + i / 100.0)
                    .append('\n');
            wiki.append("2026-09-0")
                    .append(1 + i % 3)
                    .append(",run-")
                    .append(i % 3)
                    .append(",c")
                    .append(i % 3)
                    .append(",Xeon,parse/")
                    .append(i)
                    .append(',')
                    .append(1.5 + i / 100.0)
                    .append(",v1\n");
        }
        own.append("2026-09-04,run-3,c3,Xeon,lex,0.8\n");
        wiki.append("2026-09-04,run-3,c3,Xeon,lex,0.8,v1\n");
        wiki.append("2026-09-04,run-3,c3,Xeon,parse/new,2.0,v1\n");
        wiki.append("2026-09-05,run-4,c4,Xeon,lex,0.82,v1\n");
        SeriesFile.Merge merged =
                SeriesFile.read(own.toString(), "ratios.csv").with(SeriesFile.read(wiki.toString(), "wiki.csv"));
        return new SeriesImport(
                "ratios.csv",
                "wiki/ratios.csv",
                merged,
                new SeriesCuration(
                        Optional.of("main"),
                        7,
                        List.of(
                                new SeriesCuration.Dropped(
                                        "8812",
                                        LocalDate.of(2026, 8, 30),
                                        "3f9c1e0a77d2b6c1d0e9f8a7b6c5d4e3f2a1b0c9",
                                        SeriesCuration.Reason.OFF_REF,
                                        3),
                                new SeriesCuration.Dropped(
                                        "stray", LocalDate.of(2026, 8, 31), "", SeriesCuration.Reason.NAMED, 1))));
    }

    /**
     * The broker run on two runner classes, the second started later, on values of its own (a
     * millionth apart: the table shown is the first's).
     */
    private static RunnerTable runners() {
        RunResults a = RunFixture.broker();
        RunResults b = RunFixture.broker();
        List<RunResults.TrialRecord> own = b.trials().stream()
                .map(t -> t.withMeasurements(t.measurements().stream()
                        .map(m -> new Measurement(m.cell(), m.side(), m.build(), m.trial(), m.value() * 1.000001))
                        .toList()))
                .toList();
        RunResults later = new RunResults(
                b.name(),
                b.provenance(),
                new RunResults.Machine(
                        b.machine().cpu(),
                        b.machine().cores(),
                        b.machine().os(),
                        b.machine().kernel(),
                        b.machine().jvm(),
                        "ubuntu-24.04-arm"),
                b.settings(),
                b.startedAt().plusSeconds(3600),
                b.finishedAt(),
                false,
                b.timing(),
                own,
                b.table());
        return RunnerTable.of(
                List.of(a, later), List.of("ubuntu-latest/results.json", RunFixture.HOSTILE + "/results.json"));
    }

    /** A bisect that found its commit, with a skipped step and a hostile subject. */
    private static Bisection bisection() {
        String good = "1".repeat(40);
        String bad = "9".repeat(40);
        String first = "5".repeat(40);
        List<Bisection.Step> steps = List.of(
                new Bisection.Step(
                        bad,
                        "Release 2.0",
                        good,
                        "ends",
                        1,
                        5,
                        "publish/256B",
                        "regression",
                        8.2,
                        6.9,
                        9.5,
                        0.0004,
                        Double.NaN,
                        false,
                        Bisection.Call.BAD,
                        "",
                        41),
                new Bisection.Step(
                        "4".repeat(40),
                        "Refactor the parser",
                        good,
                        "search",
                        1,
                        5,
                        "publish/256B",
                        "unchanged",
                        0.3,
                        -1.1,
                        1.7,
                        0.61,
                        Double.NaN,
                        false,
                        Bisection.Call.GOOD,
                        "",
                        39),
                new Bisection.Step(
                        "6".repeat(40),
                        RunFixture.HOSTILE,
                        good,
                        "search",
                        1,
                        0,
                        "publish/256B",
                        "no-data",
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        false,
                        Bisection.Call.SKIPPED,
                        "the build failed (exit code 2)",
                        12),
                new Bisection.Step(
                        first,
                        "Inline the hot loop, badly",
                        "4".repeat(40),
                        "confirm",
                        3,
                        10,
                        "publish/256B",
                        "regression",
                        7.9,
                        6.1,
                        9.8,
                        0.0011,
                        0.8,
                        true,
                        Bisection.Call.BAD,
                        "",
                        120));
        return new Bisection(
                "publish/256B:throughput",
                1,
                good,
                bad,
                new Bisection.WorkloadFile("perfab.yaml", "5".repeat(64)),
                Optional.of(first),
                Bisection.Outcome.FOUND,
                steps,
                List.of("the commit makes 96% of the whole change"),
                List.of(),
                Optional.empty());
    }

    /** Nine nightly runs of three keys; on the last night one steps up by half, and the one with a hostile name by 60%. */
    static Series series() {
        double[] jitter = {0.004, -0.006, 0.002, 0.007, -0.003, 0.001, -0.005, 0.003, -0.002};
        StringBuilder csv = new StringBuilder("date,run,commit,cpu,key,ratio\n");
        for (int night = 0; night < 9; night++) {
            String date = LocalDate.of(2026, 9, 1 + night).toString();
            String run = "run-" + (night + 1);
            String cpu = night == 8 ? "Intel Xeon 8573C" : "AMD EPYC 7763";
            double j = jitter[night];
            csv.append(date)
                    .append(',')
                    .append(run)
                    .append(",c")
                    .append(night)
                    .append(',')
                    .append(cpu)
                    .append(",stable,")
                    .append(1.0 + j)
                    .append('\n');
            csv.append(date)
                    .append(',')
                    .append(run)
                    .append(",c")
                    .append(night)
                    .append(',')
                    .append(cpu)
                    .append(",stepped,")
                    .append((night == 8 ? 1.5 : 1.0) + j)
                    .append('\n');
            csv.append(date)
                    .append(',')
                    .append(run)
                    .append(",c")
                    .append(night)
                    .append(',')
                    .append(cpu)
                    .append(",\"=evil|`x`<b>@all\",")
                    .append((night == 8 ? 3.2 : 2.0) - j)
                    .append('\n');
        }
        return SeriesFile.read(csv.toString(), "series.csv").series();
    }

    /**
     * The series of {@link #series()} against release {@code v1.4.0}, run 9 against {@code v1.5.0}
     * for its first two keys and with one key more (hostile base names included).
     */
    static Series rebased() {
        StringBuilder csv = new StringBuilder("date,run,commit,cpu,key,ratio,base\n");
        for (Series.Reading r : series().readings()) {
            String base = r.run().equals("run-9") && !r.key().startsWith("=") ? "v1.5.0|<b>`x`" : "v1.4.0";
            csv.append(r.date())
                    .append(',')
                    .append(r.run())
                    .append(',')
                    .append(r.commit())
                    .append(',')
                    .append(r.cpu())
                    .append(',')
                    .append(r.key().startsWith("=") ? "\"" + r.key() + "\"" : r.key())
                    .append(',')
                    .append(r.ratio())
                    .append(',')
                    .append(base)
                    .append('\n');
        }
        return SeriesFile.read(csv.toString(), "series.csv").series();
    }

    /** The noise of five cells: quiet, noisy, too noisy for any run, one with layout and one whose builds spread. */
    private static Sizing sizing() {
        Map<CellId, NoiseFloor> cells = new LinkedHashMap<>();
        cells.put(new CellId("a/quiet", "time"), new NoiseFloor(1, Double.NaN));
        cells.put(new CellId("b/noisy", "time"), new NoiseFloor(3.5, Double.NaN));
        cells.put(new CellId("c/noisier", "time"), new NoiseFloor(5, Double.NaN));
        cells.put(new CellId("d/layout", "time"), new NoiseFloor(1, 0.1));
        cells.put(new CellId("e/drifting", "time"), new NoiseFloor(6, Double.NaN, 0.8));
        cells.put(new CellId(RunFixture.HOSTILE, "time"), new NoiseFloor(4, 3));
        return Sizing.of(new NoiseFile("aa", "c".repeat(40), cells), 0.5, 0.05);
    }
}
