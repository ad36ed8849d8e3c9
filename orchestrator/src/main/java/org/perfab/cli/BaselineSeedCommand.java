package org.perfab.cli;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.baseline.Ratchet;
import org.perfab.model.Baseline;
import org.perfab.report.Format;
import org.perfab.report.Products;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code perfab baseline seed}. */
@Command(
        name = "seed",
        mixinStandardHelpOptions = true,
        description = {
            "Seed the floors of every tier (machine key and architecture) from the newest --window"
                    + " snapshots under --snapshots: each benchmark's ratio to the anchor, the median over the window,"
                    + " the value derived back from it and the window's anchor. A snapshot whose ratios sit more than"
                    + " --coherence-tolerance off the rest of its window together is rejected; a benchmark in under"
                    + " half of it is not seeded. Tiers already in -o and not seeded now are kept."
        })
final class BaselineSeedCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Option(
            names = "--snapshots",
            required = true,
            paramLabel = "DIR",
            description = "The folder of snapshots (DATE-SHA-MACHINESLUG.json, in subfolders too).")
    Path snapshots;

    @Option(
            names = "--anchor",
            paramLabel = "NAME",
            description = "The benchmark every ratio is against (default: the anchor of -o when it exists).")
    String anchor;

    @Option(
            names = "--window",
            paramLabel = "N",
            defaultValue = "5",
            description = "Snapshots per tier, the newest (default: ${DEFAULT-VALUE}; 1 seeds from the newest alone).")
    int window;

    @Option(
            names = "--coherence-tolerance",
            paramLabel = "PERCENT",
            defaultValue = "5",
            description = "How far a snapshot's ratios may sit off the rest of its window (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(
            names = "--arch",
            paramLabel = "ARCH",
            converter = OptionValues.Arch.class,
            description = "Seed only snapshots whose content is of ARCH.")
    String arch;

    @Mixin
    ExclusionOptions exclusions;

    @Mixin
    FormatOption<Baseline> format = new FormatOption<>(Products.BASELINE_SEED, Format.TEXT);

    @Option(
            names = {"-o", "--output"},
            required = true,
            paramLabel = "FILE",
            description = "The baseline file; when it exists, its other tiers and measured floors are kept.")
    Path output;

    BaselineSeedCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        if (window < 1 || window > 1000) {
            throw new ParameterException(spec.commandLine(), "--window must be from 1 to 1000, got " + window);
        }
        OptionValues.aboveZero(spec, "--coherence-tolerance", tolerance);
        Ratchet.Seeded seeded;
        try {
            seeded = Ratchet.seed(
                    new Ratchet.Seeding(
                            snapshots,
                            Optional.ofNullable(anchor),
                            window,
                            tolerance,
                            Optional.ofNullable(arch),
                            exclusions.exclusions(),
                            output),
                    Output::replace);
        } catch (Ratchet.BadAnchorException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        format.emit(session, seeded.seeded());
        if (seeded.written().isEmpty()) {
            spec.commandLine()
                    .getErr()
                    .println("perfab: no tier was seeded from " + snapshots
                            + (seeded.noSnapshot()
                                    ? ": it holds no snapshot" + (arch == null ? "" : " of " + arch)
                                    : "")
                            + "; " + output
                            + " is unchanged");
            return ExitCode.BAD_INPUT;
        }
        Baseline result = seeded.written().get();
        spec.commandLine()
                .getErr()
                .println("perfab: wrote " + output + " (" + result.tiers().size() + " tiers, "
                        + result.entries().size() + " floors)");
        return ExitCode.OK;
    }
}
