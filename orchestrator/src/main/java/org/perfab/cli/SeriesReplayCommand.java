package org.perfab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.perfab.model.SeriesReplay;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.series.Nightly;
import org.perfab.stats.SeriesRules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code perfab series replay}. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Replay the rules run by run over the whole series, for each --rules given (by default the"
                + " six the thresholds were chosen from), and print how many movements each headlines as new, in"
                + " all and per full run, and the first run each --key was caught on."})
final class SeriesReplayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--series", required = true, paramLabel = "FILE", description = "The series.")
    Path series;

    @Option(names = "--rules", paramLabel = "SPEC", description = "A setting to replay; give several."
            + " " + SeriesCommand.RULES)
    List<String> rules;

    @Option(names = "--key", paramLabel = "KEY[=DATE]", description = "A key to follow: the first run its"
            + " movement was caught on; with a DATE, the day its change appeared, so that an earlier catch shows"
            + " as noise.")
    List<String> keys;

    @Mixin
    OutputOptions<SeriesReplay> output = new OutputOptions<>(Products.SERIES_REPLAY, Format.TEXT);

    @Override
    public Integer call() {
        List<SeriesRules.Options> options = new ArrayList<>();
        for (String r : rules == null ? Nightly.SEED : rules) {
            options.add(SeriesCommand.rules(spec, r));
        }
        List<SeriesReplay.Watch> watch = (keys == null ? List.<String>of() : keys).stream().map(Nightly::watch)
                .toList();
        output.emit(spec, Nightly.replay(series, options, watch));
        return ExitCode.OK;
    }
}
