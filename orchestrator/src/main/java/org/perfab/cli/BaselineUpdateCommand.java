package org.perfab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.baseline.Ratchet;
import org.perfab.model.BaselineCheck;
import org.perfab.report.Untrusted;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code perfab baseline update}. */
@Command(name = "update", mixinStandardHelpOptions = true,
        description = {"Ratchet floors down: every benchmark a snapshot held below its floor takes the snapshot's"
                + " ratio. A snapshot whose ratios all moved together past --coherence-tolerance (its anchor caught"
                + " a tail) changes nothing. New benchmarks are not added: seed to add them. A snapshot older than"
                + " its tier's seeding window, and a floor lowered by more than the tolerance, are named."})
final class BaselineUpdateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--baseline", required = true, paramLabel = "FILE", description = "The baseline, rewritten"
            + " in place unless -o.")
    Path baseline;

    @Option(names = "--snapshot", required = true, paramLabel = "FILE", description = "A snapshot; repeatable,"
            + " taken in order.")
    List<Path> snapshots;

    @Option(names = "--coherence-tolerance", paramLabel = "PERCENT", defaultValue = "5", description = "(default:"
            + " ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(names = "--drop-tolerance", paramLabel = "PERCENT", defaultValue = "50", description = "Name each"
            + " floor lowered by more than this (default: ${DEFAULT-VALUE}): a benchmark that stopped doing its work"
            + " falls far. It is lowered all the same.")
    double dropTolerance;

    @Mixin
    BaselineCommand.ExclusionOptions exclusions;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the baseline to FILE.")
    Path output;

    @Override
    public Integer call() {
        BaselineCommand.tolerance(spec, "--coherence-tolerance", tolerance);
        BaselineCommand.tolerance(spec, "--drop-tolerance", dropTolerance);
        Ratchet.Updated updated = Ratchet.update(new Ratchet.Updating(baseline, snapshots, tolerance,
                exclusions.exclusions(spec), Optional.ofNullable(output)), Output::replace);
        PrintWriter out = spec.commandLine().getOut();
        for (Ratchet.Step step : updated.steps()) {
            BaselineCheck c = step.check();
            String where = step.snapshot() + " (" + c.key() + ")";
            if (!c.known()) {
                out.println(where + ": the baseline has no floors for this tier; seed it");
            } else if (c.incoherent()) {
                out.println(where + ": not taken: its ratios moved together by " + String.format(Locale.ROOT, "%+.1f%%",
                        c.offset()) + ", past the coherence tolerance of " + tolerance + "%; its anchor likely caught"
                        + " a tail");
            } else {
                int fresh = c.count(BaselineCheck.Status.NEW);
                int lowered = step.lowered().size();
                out.println(where + ": " + lowered + " floor" + (lowered == 1 ? "" : "s") + " ratcheted down"
                        + (fresh == 0 ? "" : "; " + fresh + " new benchmark" + (fresh == 1 ? "" : "s")
                                + " not added (seed to add them)"));
                step.seeded().ifPresent(d -> out.println("  note: it is older than the window its tier was seeded"
                        + " from (the newest of which is " + d + "): its floors go back in time"));
                for (Ratchet.Lowered l : step.beyond(dropTolerance)) {
                    out.println(String.format(Locale.ROOT, "  note: %s fell %.1f%% (ratio %.4g to %.4g), more than"
                            + " the --drop-tolerance of %s%%: check that it still does its work", Untrusted.plain(
                                    l.benchmark(), 200), l.drop(), l.from(), l.to(), dropTolerance == Math.rint(dropTolerance)
                                    ? Long.toString((long) dropTolerance) : Double.toString(dropTolerance)));
                }
            }
        }
        int lowered = updated.lowered();
        spec.commandLine().getErr().println("perfab: " + lowered + " floor" + (lowered == 1 ? "" : "s") + " lowered;"
                + " wrote " + updated.written());
        return ExitCode.OK;
    }
}
