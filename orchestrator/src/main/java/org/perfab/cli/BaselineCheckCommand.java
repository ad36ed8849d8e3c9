package org.perfab.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.perfab.baseline.Ratchet;
import org.perfab.model.BaselineCheck;
import org.perfab.report.Format;
import org.perfab.report.Products;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code perfab baseline check}. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Check a snapshot against the floors of its tier, in ratio space: each benchmark's ratio to"
                    + " the snapshot's own anchor against its stored ratio. OK, REGRESSED (past the budget), NEW (no"
                    + " floor) or MISSING (a floor, no benchmark). Exits 0 whatever it finds, unless --fail-on."
        })
final class BaselineCheckCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Option(names = "--baseline", required = true, paramLabel = "FILE", description = "The baseline.")
    Path baseline;

    @Option(names = "--snapshot", required = true, paramLabel = "FILE", description = "The snapshot to check.")
    Path snapshot;

    @Option(
            names = "--budget",
            paramLabel = "PERCENT|auto",
            defaultValue = "5",
            description = "How far above its"
                    + " floor a ratio may go, in percent (default: ${DEFAULT-VALUE}). auto: from the tier's measured floor"
                    + " ('perfab baseline floor --baseline'), each benchmark gets --budget-multiple times its own spread"
                    + " between the control snapshots, at least that times the tier's median spread; a benchmark the"
                    + " controls lacked gets that times the tier's 95th percentile.")
    String budget;

    @Option(
            names = "--budget-multiple",
            paramLabel = "X",
            defaultValue = "2",
            description = "What --budget auto multiplies the measured spreads by (default: ${DEFAULT-VALUE}).")
    double multiple;

    @Option(
            names = "--coherence-tolerance",
            paramLabel = "PERCENT",
            defaultValue = "5",
            description = "How far the"
                    + " snapshot's ratios may move together before the check warns that its anchor did (default:"
                    + " ${DEFAULT-VALUE}).")
    double tolerance;

    @Mixin
    ExclusionOptions exclusions;

    @Mixin
    OutputOptions<BaselineCheck> output = new OutputOptions<>(Products.BASELINE_CHECK, Format.TEXT);

    @Option(
            names = "--fail-on",
            paramLabel = "STATUS",
            completionCandidates = Failing.class,
            description = "Exit 1 when a benchmark is regressed, missing or new. Repeatable.")
    List<BaselineCheck.Status> failOn = new ArrayList<>();

    /** The statuses --fail-on takes: every one but OK. */
    static final class Failing implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(BaselineCheck.Status.values())
                    .filter(v -> v != BaselineCheck.Status.OK)
                    .map(v -> v.name().toLowerCase(Locale.ROOT))
                    .iterator();
        }
    }

    BaselineCheckCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        OptionValues.aboveZero(spec, "--coherence-tolerance", tolerance);
        if (failOn.contains(BaselineCheck.Status.OK)) {
            throw new ParameterException(spec.commandLine(), "--fail-on takes regressed, missing or new");
        }
        BaselineCheck c = Ratchet.check(
                new Ratchet.Checking(baseline, snapshot, allowance(), exclusions.exclusions(), tolerance));
        output.emit(session, c);
        return failOn.stream().anyMatch(st -> c.count(st) > 0) ? ExitCode.VERDICT : ExitCode.OK;
    }

    /** Returns the budget --budget and --budget-multiple give. */
    private Ratchet.Allowance allowance() {
        if (budget.equalsIgnoreCase("auto")) {
            if (!(multiple > 0) || Double.isInfinite(multiple)) {
                throw new ParameterException(spec.commandLine(), "--budget-multiple must be above 0, got " + multiple);
            }
            return Ratchet.Allowance.auto(multiple);
        }
        try {
            return Ratchet.Allowance.of(Double.parseDouble(budget));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(
                    spec.commandLine(), "--budget '" + budget + "' is not a percentage >= 0 or auto");
        }
    }
}
