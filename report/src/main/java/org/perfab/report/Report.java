package org.perfab.report;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Counted;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.stats.Verdict;

/**
 * What a renderer draws: a classified table, and the run it came from when there is one
 * ({@code perfab ab} has a run; {@code perfab compare} of two files has only the table).
 *
 * @param table the classified cells and warnings
 * @param run the run, with its refs, machine, settings and every trial; empty for a comparison of
 *     files
 * @param failOn the verdicts that fail the job ({@code --fail-on}); empty when the check is
 *     advisory, and the rendering says which
 */
public record Report(ComparisonTable table, Optional<RunResults> run, List<Verdict> failOn) {
    public Report {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(run, "run");
        failOn = List.copyOf(failOn);
    }

    /**
     * Returns this report once no row of its table is one the verdict rules should never make (see
     * {@link ComparisonTable#inconsistencies}). Whoever makes a report calls it where such a row is a
     * bug to fail on: under tests ({@code PERFAB_STRICT=true}, which the command line reads from
     * its environment); in production the report says so instead.
     *
     * @throws IllegalStateException when a row is inconsistent: an internal error
     */
    public Report checked() {
        List<String> wrong = table.inconsistencies();
        if (!wrong.isEmpty()) {
            throw new IllegalStateException("rows the verdict rules must never make: " + String.join("; ", wrong));
        }
        return this;
    }

    /** Returns the report of a comparison of files: advisory. */
    public static Report of(ComparisonTable table) {
        return new Report(table, Optional.empty(), List.of());
    }

    /** Returns the report of a run, failing on what the run was told to fail on. */
    public static Report of(RunResults run) {
        return new Report(run.table(), Optional.of(run), run.settings().failOn());
    }

    /** Returns this report failing the job on {@code verdicts}. */
    public Report failingOn(List<Verdict> verdicts) {
        return new Report(table, run, verdicts);
    }

    /**
     * Returns why this report compares nothing, worded (every trial of a side failed, or no cell was
     * measured on both sides); empty when it compares something. Every format says it in place of
     * its counts.
     */
    public Optional<String> noComparison() {
        return comparesNothing();
    }

    /**
     * Returns what counted this report's cells when every cell it judges is a count ("Valgrind's
     * Cachegrind"): a run that was counted, not timed, which a busy machine could not move. Empty
     * when some cell is a timing.
     */
    public Optional<String> countedBy() {
        return Counted.by(table.rows().stream()
                .filter(r -> r.comparison().verdict() != Verdict.PROFILE)
                .map(r -> r.cell().metric())
                .distinct()
                .toList());
    }

    /** Returns the name the comment is known by: the workload's, or {@code compare}. */
    public String name() {
        return run.map(RunResults::name).orElse("compare");
    }

    /**
     * Returns what stands in place of the counts when a report compares nothing: every trial of a
     * side of its run failed, or no cell was measured on both sides (see
     * {@link ComparisonTable#comparesNothing}). A table of "no data" rows must never read like a
     * pass. Empty otherwise.
     */
    private Optional<String> comparesNothing() {
        return failedSides().or(() -> {
            ComparisonTable t = table;
            if (!t.comparesNothing()) {
                return Optional.empty();
            }
            long base =
                    t.rows().stream().filter(r -> r.comparison().base().n() > 0).count();
            long head =
                    t.rows().stream().filter(r -> r.comparison().head().n() > 0).count();
            return Optional.of("no comparison: no cell was measured on both sides (" + base + " only on the"
                    + " baseline, " + head + " only on the candidate), so nothing was compared");
        });
    }

    /** Returns the sentence that every trial of a side of the report's run failed; empty otherwise. */
    private Optional<String> failedSides() {
        if (run.isEmpty()) {
            return Optional.empty();
        }
        Map<Side, Integer> ok = new EnumMap<>(Side.class);
        Map<Side, Integer> ran = new EnumMap<>(Side.class);
        for (RunResults.TrialRecord t : run.get().trials()) {
            if (!t.warmup()) {
                ran.merge(t.side(), 1, Integer::sum);
                if (t.status() == RunResults.Status.OK) {
                    ok.merge(t.side(), 1, Integer::sum);
                }
            }
        }
        boolean base = ok.getOrDefault(Side.BASE, 0) == 0;
        boolean head = ok.getOrDefault(Side.HEAD, 0) == 0;
        if (!base && !head) {
            return Optional.empty();
        }
        int failed = ran.getOrDefault(Side.BASE, 0) * (base ? 1 : 0) + ran.getOrDefault(Side.HEAD, 0) * (head ? 1 : 0);
        return Optional.of("no comparison: "
                + (base && head ? "no trial of either side" : "no trial of the " + (base ? "baseline" : "candidate"))
                + " succeeded (" + failed + " failed)");
    }
}
