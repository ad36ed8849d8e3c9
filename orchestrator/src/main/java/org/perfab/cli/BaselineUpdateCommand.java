package org.perfab.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.baseline.Ratchet;
import org.perfab.model.BaselineUpdate;
import org.perfab.report.Format;
import org.perfab.report.Products;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code perfab baseline update}. */
@Command(
        name = "update",
        mixinStandardHelpOptions = true,
        description = {
            "Ratchet floors down: every benchmark a snapshot held below its floor takes the snapshot's"
                    + " ratio. A snapshot whose ratios all moved together past --coherence-tolerance (its anchor caught"
                    + " a tail) changes nothing. New benchmarks are not added: seed to add them. A snapshot older than"
                    + " its tier's seeding window, and a floor lowered by more than the tolerance, are named."
        })
final class BaselineUpdateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Option(
            names = "--baseline",
            required = true,
            paramLabel = "FILE",
            description = "The baseline, rewritten in place unless -o.")
    Path baseline;

    @Option(
            names = "--snapshot",
            required = true,
            paramLabel = "FILE",
            description = "A snapshot; repeatable, taken in order.")
    List<Path> snapshots;

    @Option(
            names = "--coherence-tolerance",
            paramLabel = "PERCENT",
            defaultValue = "5",
            description = "(default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(
            names = "--drop-tolerance",
            paramLabel = "PERCENT",
            defaultValue = "50",
            description = "Name each"
                    + " floor lowered by more than this (default: ${DEFAULT-VALUE}): a benchmark that stopped doing its work"
                    + " falls far. It is lowered all the same.")
    double dropTolerance;

    @Mixin
    ExclusionOptions exclusions;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Write the baseline to FILE.")
    Path output;

    @Mixin
    FormatOption<BaselineUpdate> format = new FormatOption<>(Products.BASELINE_UPDATE, Format.TEXT);

    BaselineUpdateCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        OptionValues.aboveZero(spec, "--coherence-tolerance", tolerance);
        OptionValues.aboveZero(spec, "--drop-tolerance", dropTolerance);
        Ratchet.Updated updated = Ratchet.update(
                new Ratchet.Updating(
                        baseline,
                        snapshots,
                        tolerance,
                        dropTolerance,
                        exclusions.exclusions(),
                        Optional.ofNullable(output)),
                Output::replace);
        format.emit(session, updated.update());
        int lowered = updated.update().lowered();
        spec.commandLine()
                .getErr()
                .println("perfab: " + lowered + " floor" + (lowered == 1 ? "" : "s") + " lowered; wrote "
                        + updated.written());
        return ExitCode.OK;
    }
}
