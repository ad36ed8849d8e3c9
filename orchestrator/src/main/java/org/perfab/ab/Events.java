package org.perfab.ab;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.perfab.model.CellId;
import org.perfab.model.Side;
import org.perfab.stats.Verdict;

/**
 * What a run tells its caller as it goes: notes for the operator, each trial as it starts and
 * ends, what is left of the run, and what each look of adaptive trials decided. The caller words
 * and shows them (a terminal's live line, a CI log); text here may quote a pull request (paths,
 * harness output, cell names), so the caller escapes it.
 */
public interface Events {
    /** A note for the operator: a side being built, the harness files copied, a damaged cache entry. */
    void note(String text);

    /** The trials to run: {@code total} in all, of which {@code done} ran before (a resumed run). */
    void planned(int total, int done);

    /**
     * A trial starts: trial {@code trial} (from 0) of {@code ofSide} of {@code side}'s warm-ups
     * or counted trials.
     */
    void starting(Side side, boolean warmup, int trial, int ofSide);

    /** A trial ended after {@code seconds}; {@code status} is {@code ok} or why it failed. */
    void finished(Side side, boolean warmup, int trial, int ofSide, double seconds, String status);

    /**
     * A command of a trial starts: {@code what} names the trial, the command, its working folder
     * and its log files. For an operator who asked to see them; quiet by default.
     */
    default void command(String what) {}

    /** A side's build starts: {@code what} names the side, its build and its commit. */
    default void building(String what) {
        note("building " + what);
    }

    /** A side's build ended after {@code seconds}; {@code cachedSeconds} is NaN, or what the cached build took. */
    default void built(String what, double seconds, double cachedSeconds) {
        note(
                Double.isNaN(cachedSeconds)
                        ? String.format(Locale.ROOT, "built %s in %.1f s", what, seconds)
                        : String.format(
                                Locale.ROOT,
                                "%s: build taken from the cache in %.1f s (it took %.1f s to build)",
                                what,
                                seconds,
                                cachedSeconds));
    }

    /**
     * The run's first estimate of its length, said once: before its first counted trial, from the
     * warm-ups, or, without warm-ups, once its first trial ran. Quiet by default.
     */
    default void estimated(Estimate estimate) {}

    /** What is left of the run once a trial ended, said before {@link #finished}. Quiet by default. */
    default void remaining(Estimate estimate) {}

    /** A look of adaptive trials left cells open, and the next look runs. Quiet by default. */
    default void looked(Look look) {}

    /**
     * A look of adaptive trials left cells open, and the next look would take the trials past
     * {@code budget}, of which {@code spentSeconds} are spent: the run stops here. {@code enough} is
     * a budget that lets the next look run. Quiet by default.
     */
    default void overBudget(Look look, Duration budget, double spentSeconds, Duration enough) {}

    /**
     * What is left of a run's trials, priced by the trials so far (see {@link Rounds#estimate}). A
     * time is NaN until a trial prices it.
     *
     * @param look the look the trials run toward now, from 1; 1 for a run of a fixed size
     * @param looks the most looks the run may take; 1 for a run of a fixed size
     * @param trials the trials per side at that look
     * @param most the trials per side at the last look
     * @param pairSeconds what a trial pair (a trial of each side) of the trials run now takes
     * @param lookSeconds what is left until that look
     * @param mostSeconds the most that is left of the run: until its last look, should every cell open
     *     now stay open to the end (a later look runs only the cells still open)
     * @param counting how a counted trial was priced before any ran; empty when it was not
     */
    record Estimate(
            int look,
            int looks,
            int trials,
            int most,
            double pairSeconds,
            double lookSeconds,
            double mostSeconds,
            Optional<Counting> counting) {
        public Estimate {
            if (look < 1 || looks < look || trials < 1 || most < trials) {
                throw new IllegalArgumentException(
                        "look " + look + " of " + looks + " at " + trials + " of " + most + " trials per side");
            }
        }

        /** Returns whether the trials so far price the run: a trial of it, or a warm-up, has run. */
        public boolean priced() {
            return !Double.isNaN(pairSeconds);
        }
    }

    /**
     * How a trial that counts its benchmarks one at a time, under Valgrind, was priced before the
     * first ran: each warm-up counted one benchmark, and a trial counts all of them, several at once.
     *
     * @param benchmarks the benchmarks a trial counts
     * @param workers how many it counts at once
     * @param benchmarkSeconds how long counting one benchmark took, the mean over the warm-ups
     */
    record Counting(int benchmarks, int workers, double benchmarkSeconds) {}

    /**
     * What a look of adaptive trials decided, and what the next look costs.
     *
     * @param look the look, from 1
     * @param looks the most looks the run may take
     * @param cells the cells judged, besides those that take another cell's verdict
     * @param decided how many of them each verdict decided, in the order of {@link Verdict}; only
     *     verdicts that decided some
     * @param open the cells still open, in the table's order
     * @param benchmarks the benchmarks the next look runs: the open cells' names
     * @param trials the trials per side the next look adds
     * @param nextSeconds what the next look takes; NaN when the trials so far cannot tell
     */
    record Look(
            int look,
            int looks,
            int cells,
            Map<Verdict, Integer> decided,
            List<CellId> open,
            int benchmarks,
            int trials,
            double nextSeconds) {
        public Look {
            Map<Verdict, Integer> kept = new EnumMap<>(Verdict.class);
            decided.forEach((v, n) -> {
                if (n > 0) {
                    kept.put(v, n);
                }
            });
            decided = Collections.unmodifiableMap(kept);
            open = List.copyOf(open);
        }
    }
}
