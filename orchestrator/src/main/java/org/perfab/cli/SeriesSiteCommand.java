package org.perfab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.report.SiteRenderer;
import org.perfab.series.SeriesSite;
import org.perfab.stats.SeriesRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code perfab series site}. */
@Command(
        name = "site",
        mixinStandardHelpOptions = true,
        description = {
            "Write a static site of the series: an index of every key (sortable, filterable, with its"
                    + " latest ratio, its noise and its movement in the latest run) and a chart per key of its ratio over"
                    + " time, with the steps and drifts marked on the nights 'check' reports them, new and persisting,"
                    + " and the readings on a processor model new to the key; each reading links its commit and run."
                    + " One folder of HTML, SVG and script that needs no server and no network: open index.html."
        },
        footer = {
            "",
            "With --baseline, the ratchet baseline's floors per tier and benchmark are shown beside the"
                    + " series, and on a key's page the floors of the benchmark of its name."
        })
final class SeriesSiteCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Option(names = "--series", required = true, paramLabel = "FILE", description = "The series.")
    Path series;

    @Option(
            names = "--baseline",
            paramLabel = "FILE",
            description = "A ratchet baseline (baseline.json) to show beside the series.")
    Path baseline;

    @Option(
            names = "--out",
            required = true,
            paramLabel = "DIR",
            description = "The folder to write the site into (created; the site's files in it are replaced).")
    Path out;

    @Option(
            names = "--repo-url",
            paramLabel = "URL",
            description = "The repository's address, that commits"
                    + " (URL/commit/SHA) and runs (URL/actions/runs/ID) are linked under (default:"
                    + " $GITHUB_SERVER_URL/$GITHUB_REPOSITORY; without either, no links).")
    String repoUrl;

    @Option(
            names = "--rules",
            paramLabel = "SPEC",
            converter = OptionValues.Rules.class,
            description = OptionValues.Rules.DESCRIPTION)
    SeriesRules.Options rules = SeriesRules.Options.DEFAULT;

    SeriesSiteCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        SeriesSite.Written w = SeriesSite.write(
                new SeriesSite.Request(
                        series,
                        Optional.ofNullable(baseline),
                        out,
                        rules,
                        SeriesSite.repoUrl(Optional.ofNullable(repoUrl), session.env())),
                SiteRenderer::files);
        PrintWriter err = spec.commandLine().getErr();
        err.println(SiteLine.of(w));
        err.flush();
        return ExitCode.OK;
    }
}
