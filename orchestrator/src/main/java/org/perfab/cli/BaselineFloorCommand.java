package org.perfab.cli;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.baseline.Ratchet;
import org.perfab.report.FloorTable;
import org.perfab.report.Format;
import org.perfab.report.Products;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code perfab baseline floor}. */
@Command(
        name = "floor",
        mixinStandardHelpOptions = true,
        description = {
            "Measure the floor under the budget: given control snapshots of builds that cannot differ"
                    + " (a comment-only edit, or one commit run again), print per tier how far their ratios spread"
                    + " over every pair. With --baseline, store it there for 'check --budget auto'."
        })
final class BaselineFloorCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Option(names = "--snapshots", required = true, paramLabel = "DIR", description = "The control snapshots.")
    Path snapshots;

    @Option(names = "--anchor", paramLabel = "NAME", description = "The anchor (default: the baseline's).")
    String anchor;

    @Option(
            names = "--arch",
            paramLabel = "ARCH",
            converter = OptionValues.Arch.class,
            description = "Only snapshots whose content is of ARCH.")
    String arch;

    @Option(names = "--baseline", paramLabel = "FILE", description = "Store the floors in this baseline.")
    Path baseline;

    @Option(
            names = "--budget-multiple",
            paramLabel = "X",
            defaultValue = "2",
            description = "What --budget auto"
                    + " multiplies the spreads by, for the table's budgets (default: ${DEFAULT-VALUE}).")
    double multiple;

    @Mixin
    ExclusionOptions exclusions;

    @Mixin
    OutputOptions<FloorTable> output = new OutputOptions<>(Products.BASELINE_FLOORS, Format.TEXT);

    BaselineFloorCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        if (anchor == null && baseline == null) {
            throw new ParameterException(spec.commandLine(), "--anchor NAME is needed without --baseline");
        }
        Ratchet.Floored floored = Ratchet.floor(
                new Ratchet.Flooring(
                        snapshots,
                        Optional.ofNullable(anchor),
                        Optional.ofNullable(arch),
                        Optional.ofNullable(baseline),
                        exclusions.exclusions()),
                Output::replace);
        output.emit(session, new FloorTable(floored.floors(), multiple));
        if (floored.floors().isEmpty()) {
            spec.commandLine()
                    .getErr()
                    .println("perfab: no tier under " + snapshots + " has two control snapshots with "
                            + floored.anchor());
            return ExitCode.BAD_INPUT;
        }
        floored.stored()
                .ifPresent(b -> spec.commandLine()
                        .getErr()
                        .println("perfab: stored " + floored.floors().size() + " floor"
                                + (floored.floors().size() == 1 ? "" : "s") + " in " + b));
        return ExitCode.OK;
    }
}
