package org.perfab.model;

import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The runs left out of a nightly series before it is merged, replayed or measured: those named to
 * be dropped, and, when the series is kept to a ref, those whose commit is not on it (a branch's
 * run, or one of a commit that no longer exists), each with its reason.
 *
 * @param on the ref runs were kept to; empty when none was given
 * @param runs how many runs there were before any was dropped
 * @param dropped the runs dropped, in run order
 */
public record SeriesCuration(Optional<String> on, int runs, List<Dropped> dropped) {
    public SeriesCuration {
        Objects.requireNonNull(on, "on");
        dropped = List.copyOf(dropped);
    }

    /** Why a run was dropped. */
    public enum Reason {
        /** It was named to be dropped. */
        NAMED("named"),
        /** Its commit is in the repository, off the ref's history. */
        OFF_REF("off-ref"),
        /** Its commit is not in the repository at all (a deleted branch's, say). */
        ABSENT("absent"),
        /** It records no commit, so it cannot be shown to be on the ref. */
        NO_COMMIT("no-commit");

        private final String id;

        Reason(String id) {
            this.id = id;
        }

        /** The reason's name in files. */
        public String id() {
            return id;
        }
    }

    /**
     * A run dropped.
     *
     * @param run the run's id
     * @param date its date
     * @param commit the commit that decided it (its first when it names none); empty when it records none
     * @param reason why it was dropped
     * @param readings how many readings it had
     */
    public record Dropped(String run, LocalDate date, String commit, Reason reason, int readings) {
        public Dropped {
            Objects.requireNonNull(run, "run");
            Objects.requireNonNull(date, "date");
            Objects.requireNonNull(commit, "commit");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Returns whether any run was dropped. */
    public boolean any() {
        return !dropped.isEmpty();
    }

    /** Returns how many readings the runs dropped had. */
    public int readings() {
        return dropped.stream().mapToInt(Dropped::readings).sum();
    }

    /** Returns {@code file} without the rows of the runs dropped; its header and other rows as they were. */
    public SeriesFile apply(SeriesFile file) {
        if (dropped.isEmpty()) {
            return file;
        }
        Set<String> gone = dropped.stream().map(Dropped::run).collect(Collectors.toSet());
        return new SeriesFile(
                file.columns(),
                file.rows().stream()
                        .filter(r -> !gone.contains(r.reading().run()))
                        .toList());
    }
}
