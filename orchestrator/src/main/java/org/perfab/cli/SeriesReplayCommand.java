package org.perfab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.perfab.model.SeriesReplay;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.series.Nightly;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code perfab series replay}. */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        description = {
            "Replay the rules run by run over the whole series, for each --rules given (by default the"
                    + " six the thresholds were chosen from), and print how many movements each headlines as new, in"
                    + " all and per full run, and the first run each --key was caught on.",
            "A step or drift of --rules may be pNN, derived from the series' noise: the NNth percentile of every"
                    + " reading's deviation from the median of its key's previous readings (over the setting's window),"
                    + " rounded to a whole percent, as 'perfab series noise' prints it; 'step=p95,drift=p90', say.",
            "With --on or --drop-run, the runs dropped are left out first, each named on standard error."
        })
final class SeriesReplayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Option(names = "--series", required = true, paramLabel = "FILE", description = "The series.")
    Path series;

    @Option(
            names = "--rules",
            paramLabel = "SPEC",
            description = "A setting to replay; give several. " + OptionValues.Rules.DESCRIPTION)
    List<String> rules;

    @Option(
            names = "--key",
            paramLabel = "KEY[=DATE]",
            description = "A key to follow: the first run its"
                    + " movement was caught on; with a DATE, the day its change appeared, so that an earlier catch shows"
                    + " as noise.")
    List<String> keys;

    @Mixin
    CurationOptions curate = new CurationOptions();

    @Mixin
    OutputOptions<SeriesReplay> output = new OutputOptions<>(Products.SERIES_REPLAY, Format.TEXT);

    SeriesReplayCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        List<SeriesReplay.Watch> watch = (keys == null ? List.<String>of() : keys)
                .stream().map(Nightly::watch).toList();
        Nightly.Replayed replayed =
                Nightly.replay(series, rules == null ? Nightly.SEED : rules, watch, curate.curation());
        PrintWriter err = spec.commandLine().getErr();
        replayed.replay().curation().ifPresent(c -> curate.report(err, c));
        for (Nightly.Derived d : replayed.derived()) {
            String p = d.percentile() == Math.rint(d.percentile())
                    ? Long.toString((long) d.percentile())
                    : Double.toString(d.percentile());
            err.println("perfab: " + d.name() + "=p" + p + " is " + d.rounded() + "% (the " + p + "th percentile of "
                    + d.deviations() + " deviations over a window of " + d.window() + ", "
                    + String.format(Locale.ROOT, "%.2f", d.value()) + "%)");
        }
        err.flush();
        output.emit(session, replayed.replay());
        return ExitCode.OK;
    }
}
