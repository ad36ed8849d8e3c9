package org.perfab.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.perfab.model.SeriesNoiseTable;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.series.Nightly;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code perfab series noise}. */
@Command(
        name = "noise",
        mixinStandardHelpOptions = true,
        description = {
            "Print the noise of the series, the figures the step and drift thresholds are chosen from:"
                    + " over every key and per key, the 50th, 75th, 90th, 95th and 99th percentiles of each reading's"
                    + " relative deviation from the median of its key's previous --window readings, each key's readings,"
                    + " and its noise as the step rule judged its latest reading with. 'perfab series replay --rules"
                    + " step=p95' replays a threshold taken from them.",
            "With --on or --drop-run, the runs dropped are left out first, each named on standard error."
        })
final class SeriesNoiseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Option(names = "--series", required = true, paramLabel = "FILE", description = "The series.")
    Path series;

    @Option(
            names = "--window",
            paramLabel = "N",
            defaultValue = "5",
            description = "How many earlier readings"
                    + " make the median a reading is measured against (default: ${DEFAULT-VALUE}, the rules' window).")
    int window;

    @Option(
            names = "--key",
            paramLabel = "GLOB",
            description = "Only the keys GLOB matches (* stops at /, **"
                    + " does not); give several. A GLOB that matches no key is an error.")
    List<String> keys;

    @Mixin
    CurationOptions curate = new CurationOptions();

    @Mixin
    OutputOptions<SeriesNoiseTable> output = new OutputOptions<>(Products.SERIES_NOISE, Format.TEXT);

    SeriesNoiseCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        Nightly.Measured measured = Nightly.noise(series, window, keys == null ? List.of() : keys, curate.curation());
        curate.report(spec.commandLine().getErr(), measured.curation());
        output.emit(session, measured.table());
        return ExitCode.OK;
    }
}
