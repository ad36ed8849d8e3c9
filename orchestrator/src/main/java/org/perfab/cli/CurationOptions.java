package org.perfab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.perfab.model.Ids;
import org.perfab.model.SeriesCuration;
import org.perfab.report.Untrusted;
import org.perfab.series.Curation;
import picocli.CommandLine.Option;

/**
 * {@code --on}, {@code --repo} and {@code --drop-run}: the runs of a nightly series to leave out,
 * the one declaration of them for every series command that reads a whole series, and the lines
 * that say what was left out.
 */
final class CurationOptions {
    @Option(
            names = "--on",
            paramLabel = "REF",
            description = "Keep only the runs whose commit is REF's or an"
                    + " ancestor of it (a run of a branch, or of a commit the repository no longer has, is dropped).")
    String on;

    @Option(
            names = "--repo",
            paramLabel = "DIR",
            defaultValue = ".",
            description = "The repository --on looks commits up in (default: ${DEFAULT-VALUE}).")
    Path repo;

    @Option(
            names = "--drop-run",
            paramLabel = "ID",
            description = "Drop the run ID; give several. An ID the series lacks is an error.")
    List<String> drop;

    /** Returns the runs to leave out as the options give them. */
    Curation curation() {
        return new Curation(Optional.ofNullable(on), repo, drop == null ? List.of() : drop);
    }

    /**
     * Prints each run dropped, with its date, commit and reason, and the counts, to {@code err};
     * nothing when nothing was asked.
     */
    void report(PrintWriter err, SeriesCuration c) {
        if (on == null && drop == null) {
            return;
        }
        String ref = c.on().map(r -> Untrusted.plain(r, 80)).orElse("");
        for (SeriesCuration.Dropped d : c.dropped()) {
            String commit =
                    d.commit().isEmpty() ? "no commit" : "commit " + Untrusted.plain(Ids.shortCommit(d.commit()), 40);
            String why = switch (d.reason()) {
                case NAMED -> "named by --drop-run";
                case OFF_REF -> "its commit is not on " + ref;
                case ABSENT -> "its commit is not in the repository";
                case NO_COMMIT -> "it records no commit to find on " + ref;
            };
            err.println("perfab: dropped run " + Untrusted.plain(d.run(), 80) + " (" + d.date() + ", " + commit + ", "
                    + d.readings() + " reading" + (d.readings() == 1 ? "" : "s") + "): " + why);
        }
        int kept = c.runs() - c.dropped().size();
        err.println("perfab: dropped " + c.dropped().size() + " of " + c.runs() + " run" + (c.runs() == 1 ? "" : "s")
                + " (" + c.readings() + " reading" + (c.readings() == 1 ? "" : "s") + "); kept " + kept
                + (c.on().isPresent() ? ", every one's commit on " + ref : ""));
        err.flush();
    }
}
