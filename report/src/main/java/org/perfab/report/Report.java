package org.perfab.report;

import java.util.Objects;
import java.util.Optional;
import org.perfab.model.ComparisonTable;
import org.perfab.model.RunResults;

/**
 * What a renderer draws: a classified table, and the run it came from when there is one
 * ({@code perfab ab} has a run; {@code perfab compare} of two files has only the table).
 *
 * @param table the classified cells and warnings
 * @param run the run, with its refs, machine, settings and every trial; empty for a comparison of
 *     files
 */
public record Report(ComparisonTable table, Optional<RunResults> run) {
    public Report {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(run, "run");
    }

    /** Returns the report of a comparison of files. */
    public static Report of(ComparisonTable table) {
        return new Report(table, Optional.empty());
    }

    /** Returns the report of a run. */
    public static Report of(RunResults run) {
        return new Report(run.table(), Optional.of(run));
    }

    /** Returns the name the comment is known by: the workload's, or {@code compare}. */
    public String name() {
        return run.map(RunResults::name).orElse("compare");
    }
}
