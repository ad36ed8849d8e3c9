package org.perfab.cli;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.perfab.model.ComparisonTable;
import org.perfab.stats.Verdict;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** {@code --fail-on}: the only way a verdict reaches the exit code. */
final class FailOn {
    private FailOn() {}

    /** The verdicts {@code --fail-on} takes. */
    private static final List<Verdict> TAKEN = List.of(Verdict.REGRESSION, Verdict.INCONCLUSIVE);

    /** The names {@code --fail-on} takes, for its completion: {@code regression}, {@code inconclusive}. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return TAKEN.stream().map(Verdict::id).iterator();
        }
    }

    /** Returns the verdicts named, rejecting any but {@code regression} and {@code inconclusive}. */
    static List<Verdict> parse(CommandSpec spec, List<String> names) {
        List<Verdict> verdicts = new ArrayList<>();
        for (String name : names) {
            String id = name.trim().toLowerCase(Locale.ROOT);
            verdicts.add(TAKEN.stream()
                    .filter(v -> v.id().equals(id))
                    .findFirst()
                    .orElseThrow(() -> new ParameterException(
                            spec.commandLine(),
                            "--fail-on: unknown verdict '" + name + "' (expected regression or inconclusive)")));
        }
        return verdicts;
    }

    /**
     * Returns {@link ExitCode#VERDICT} when a row has one of {@code failing}, or when any
     * {@code --fail-on} is given and the table has rows the run did not measure (a shard without
     * results: see {@link ComparisonTable#notMeasured}), which could hide either; else OK.
     */
    static int exitCode(ComparisonTable table, List<Verdict> failing) {
        if (!failing.isEmpty() && !table.notMeasured().isEmpty()) {
            return ExitCode.VERDICT;
        }
        for (Verdict v : failing) {
            if (table.counts().get(v) > 0) {
                return ExitCode.VERDICT;
            }
        }
        return ExitCode.OK;
    }
}
