package org.perfab.ab;

import java.util.Locale;
import org.perfab.model.Side;

/**
 * What a run tells its caller as it goes: notes for the operator, and each trial as it starts and
 * ends. The caller words and shows them (a terminal's live line, a CI log); text here may quote a
 * pull request (paths, harness output), so the caller escapes it.
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
    default void command(String what) {
    }

    /** A side's build starts: {@code what} names the side, its build and its commit. */
    default void building(String what) {
        note("building " + what);
    }

    /** A side's build ended after {@code seconds}; {@code cachedSeconds} is NaN, or what the cached build took. */
    default void built(String what, double seconds, double cachedSeconds) {
        note(Double.isNaN(cachedSeconds) ? String.format(Locale.ROOT, "built %s in %.1f s", what, seconds)
                : String.format(Locale.ROOT, "%s: build taken from the cache in %.1f s (it took %.1f s to"
                        + " build)", what, seconds, cachedSeconds));
    }
}
