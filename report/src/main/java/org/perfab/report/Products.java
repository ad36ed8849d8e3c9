package org.perfab.report;

import java.util.LinkedHashMap;
import java.util.Map;
import org.perfab.model.Baseline;
import org.perfab.model.BaselineCheck;
import org.perfab.model.BaselineUpdate;
import org.perfab.model.Bisection;
import org.perfab.model.BisectionJson;
import org.perfab.model.CalibrationFigures;
import org.perfab.model.RunnerTable;
import org.perfab.model.SeriesCheck;
import org.perfab.model.SeriesImport;
import org.perfab.model.SeriesNoiseTable;
import org.perfab.model.SeriesReplay;
import org.perfab.model.Sizing;
import org.perfab.stats.Verdict;

/**
 * Every product perfab renders, each with the formats it supports. CSV goes with the products that
 * are a table of rows; GitHub's annotations with those that flag something in a pull request or a
 * scheduled run; HTML and JUnit XML with the A/B table.
 */
public final class Products {
    private Products() {}

    /** An A/B, of a run or of two files: every format; text coloured on a terminal. */
    public static final Product<Report> AB = ab();

    /** One A/B across runner classes ({@code perfab runners}). */
    public static final Product<RunnerTable> RUNNERS = Product.<RunnerTable>named("perfab runners")
            .with(Format.TEXT, RunnersRenderer::text)
            .with(Format.MARKDOWN, RunnersRenderer::markdown)
            .with(Format.JSON, RunnersRenderer::json)
            .with(Format.CSV, RunnersRenderer::csv);

    /** What a bisect found, and its steps ({@code perfab bisect}). */
    public static final Product<Bisection> BISECT = Product.<Bisection>named("perfab bisect")
            .with(Format.TEXT, BisectRenderer::text)
            .with(Format.MARKDOWN, BisectRenderer::markdown)
            .with(Format.JSON, BisectionJson::write)
            .with(Format.CSV, BisectRenderer::csv);

    /** The movements of one run of a nightly ratio series ({@code perfab series check} and {@code record}). */
    public static final Product<SeriesCheck> SERIES_CHECK = Product.<SeriesCheck>named("perfab series check")
            .with(Format.TEXT, SeriesRenderer::text)
            .with(Format.MARKDOWN, SeriesRenderer::markdown)
            .with(Format.JSON, SeriesRenderer::json)
            .with(Format.GITHUB, SeriesRenderer::github)
            .with(Format.CSV, SeriesRenderer::csv)
            .outputs(c -> ordered(
                    "new",
                    c.newCount(),
                    "persisting",
                    c.movements().size() - c.newCount(),
                    "rebased",
                    c.rebasings().size()))
            .summary("the series' movements");

    /** Another history folded into a nightly ratio series ({@code perfab series import}). */
    public static final Product<SeriesImport> SERIES_IMPORT = Product.<SeriesImport>named("perfab series import")
            .with(Format.TEXT, SeriesRenderer::importText)
            .with(Format.MARKDOWN, SeriesRenderer::importMarkdown)
            .with(Format.JSON, SeriesRenderer::importJson)
            .with(Format.GITHUB, SeriesRenderer::importGithub)
            .outputs(SeriesRenderer::importCounts)
            .summary("the series import");

    /** The series' rules replayed run by run ({@code perfab series replay} and {@code demo}). */
    public static final Product<SeriesReplay> SERIES_REPLAY = Product.<SeriesReplay>named("perfab series replay")
            .with(Format.TEXT, SeriesRenderer::replayText)
            .with(Format.MARKDOWN, SeriesRenderer::replayMarkdown)
            .with(Format.JSON, SeriesRenderer::replayJson)
            .with(Format.CSV, SeriesRenderer::replayCsv);

    /** The noise of a nightly ratio series, per key and over all ({@code perfab series noise}). */
    public static final Product<SeriesNoiseTable> SERIES_NOISE = Product.<SeriesNoiseTable>named("perfab series noise")
            .with(Format.TEXT, NoiseRenderer::text)
            .with(Format.MARKDOWN, NoiseRenderer::markdown)
            .with(Format.JSON, NoiseRenderer::json)
            .with(Format.CSV, NoiseRenderer::csv);

    /** A snapshot checked against a ratchet baseline ({@code perfab baseline check}). */
    public static final Product<BaselineCheck> BASELINE_CHECK = Product.<BaselineCheck>named("perfab baseline check")
            .with(Format.TEXT, c -> BaselineRenderer.checkText(c, false))
            .with(Format.MARKDOWN, c -> BaselineRenderer.checkText(c, true))
            .with(Format.JSON, BaselineRenderer::checkJson)
            .with(Format.GITHUB, BaselineRenderer::checkGithub)
            .with(Format.CSV, BaselineRenderer::checkCsv)
            .outputs(BaselineRenderer::counts)
            .summary("the baseline check");

    /** What seeding a baseline did ({@code perfab baseline seed}); its JSON is the seeded baseline. */
    public static final Product<Baseline> BASELINE_SEED = Product.<Baseline>named("perfab baseline seed")
            .with(Format.TEXT, b -> BaselineRenderer.seed(b, false))
            .with(Format.MARKDOWN, b -> BaselineRenderer.seed(b, true))
            .with(Format.JSON, Baseline::write);

    /** What ratcheting a baseline's floors down did ({@code perfab baseline update}). */
    public static final Product<BaselineUpdate> BASELINE_UPDATE = Product.<BaselineUpdate>named(
                    "perfab baseline update")
            .with(Format.TEXT, u -> BaselineRenderer.update(u, false))
            .with(Format.MARKDOWN, u -> BaselineRenderer.update(u, true))
            .with(Format.JSON, BaselineRenderer::updateJson)
            .with(Format.GITHUB, BaselineRenderer::updateGithub)
            .outputs(BaselineRenderer::updateCounts)
            .summary("the baseline update");

    /** Two baselines side by side ({@code perfab baseline diff}). */
    public static final Product<BaselinePair> BASELINE_DIFF = Product.<BaselinePair>named("perfab baseline diff")
            .with(Format.TEXT, p -> BaselineRenderer.diff(p, false))
            .with(Format.MARKDOWN, p -> BaselineRenderer.diff(p, true))
            .with(Format.JSON, BaselineRenderer::diffJson)
            .with(Format.CSV, BaselineRenderer::diffCsv);

    /** Measured noise floors ({@code perfab baseline floor}). */
    public static final Product<FloorTable> BASELINE_FLOORS = Product.<FloorTable>named("perfab baseline floor")
            .with(Format.TEXT, f -> BaselineRenderer.floors(f, false))
            .with(Format.MARKDOWN, f -> BaselineRenderer.floors(f, true))
            .with(Format.JSON, BaselineRenderer::floorsJson)
            .with(Format.CSV, BaselineRenderer::floorsCsv);

    /** The sizing of a run: the trials and builds it needs ({@code perfab plan}). */
    public static final Product<Sizing> SIZING = Product.<Sizing>named("perfab plan")
            .with(Format.TEXT, SizingRenderer::text)
            .with(Format.MARKDOWN, SizingRenderer::markdown)
            .with(Format.JSON, SizingRenderer::json)
            .with(Format.CSV, SizingRenderer::csv);

    /**
     * What {@code perfab calibrate} measured: the simulation, and the real runs when there were any.
     * No CSV: its tables have columns of their own, and JSON holds every figure of each.
     */
    public static final Product<CalibrationFigures> CALIBRATE = Product.<CalibrationFigures>named("perfab calibrate")
            .with(Format.TEXT, CalibrateRenderer::text)
            .with(Format.MARKDOWN, CalibrateRenderer::markdown)
            .with(Format.JSON, CalibrateRenderer::json);

    /**
     * A script's message in its own words ({@code perfab github annotate} and {@code summary}): a
     * line for the log, a paragraph for the job summary, an annotation.
     */
    public static final Product<Message> MESSAGE = Product.<Message>named("perfab github annotate")
            .with(Format.TEXT, MessageRenderer::text)
            .with(Format.MARKDOWN, MessageRenderer::markdown)
            .with(Format.GITHUB, MessageRenderer::github)
            .summary("the message");

    private static Product<Report> ab() {
        return Product.<Report>named("perfab ab")
                .with(Format.TEXT, new TextRenderer())
                .with(Format.JSON, new JsonRenderer())
                .with(Format.MARKDOWN, new MarkdownRenderer())
                .with(Format.GITHUB, new GithubRenderer())
                .with(Format.HTML, new HtmlRenderer())
                .with(Format.CSV, new AbCsvRenderer())
                .with(Format.JUNIT, new JunitRenderer())
                .colouredText(new TextRenderer(true))
                .summary("the comment")
                .outputs(r -> {
                    Map<Verdict, Integer> counts = r.table().counts();
                    return ordered(
                            "regressions",
                            counts.get(Verdict.REGRESSION),
                            "inconclusive",
                            counts.get(Verdict.INCONCLUSIVE),
                            "small",
                            counts.get(Verdict.SMALL),
                            "improvements",
                            counts.get(Verdict.IMPROVEMENT),
                            "noisy",
                            counts.get(Verdict.NOISY));
                });
    }

    /** Returns names and counts, alternating, as a map in that order. */
    private static Map<String, String> ordered(Object... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], String.valueOf(pairs[i + 1]));
        }
        return m;
    }
}
