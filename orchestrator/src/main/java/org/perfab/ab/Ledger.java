package org.perfab.ab;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perfab.model.RunResults;
import org.perfab.model.Warning;

/**
 * What a run has done so far, shared between its stages and the shutdown hook that writes the
 * results of an interrupted run: the finished trials, the builds, warnings found on the way, and
 * where the time went. Every method holds the ledger's lock; {@link #snapshot} copies it whole.
 */
final class Ledger {
    private final List<RunResults.TrialRecord> trials = new ArrayList<>();
    /** How many of {@link #trials}, the first, an earlier process of this run finished. */
    private int resumed;

    private final Map<SideDir, Builder.Result> builds = new HashMap<>();
    private final List<Warning> warnings = new ArrayList<>();
    private double checkoutSeconds;
    private double buildSeconds;
    private double trialSeconds;
    private double earlierSeconds;

    /**
     * A copy of the ledger at one moment.
     *
     * @param trialSeconds what the trials this process ran took, in seconds
     * @param earlierSeconds what the trials of earlier processes of this run (a resumed run) took,
     *     in seconds, as each recorded its wall time; 0 for a run not resumed
     */
    record Snapshot(
            List<RunResults.TrialRecord> trials,
            Map<SideDir, Builder.Result> builds,
            List<Warning> warnings,
            double checkoutSeconds,
            double buildSeconds,
            double trialSeconds,
            double earlierSeconds) {
        Snapshot {
            trials = List.copyOf(trials);
            builds = Map.copyOf(builds);
            warnings = List.copyOf(warnings);
        }

        /** A snapshot of a run that no earlier process began. */
        Snapshot(
                List<RunResults.TrialRecord> trials,
                Map<SideDir, Builder.Result> builds,
                List<Warning> warnings,
                double checkoutSeconds,
                double buildSeconds,
                double trialSeconds) {
            this(trials, builds, warnings, checkoutSeconds, buildSeconds, trialSeconds, 0);
        }

        /** Returns what the run's trials took so far, in seconds: this process's and every earlier one's. */
        double spentSeconds() {
            return trialSeconds + earlierSeconds;
        }
    }

    synchronized void trial(RunResults.TrialRecord record, double seconds) {
        trials.add(record);
        trialSeconds += seconds;
    }

    /**
     * Adds a trial that an earlier process of this run finished (a resumed run), before any trial
     * this process runs; the time it recorded counts toward what the run's trials took.
     */
    synchronized void resumed(RunResults.TrialRecord record) {
        if (trials.size() != resumed) {
            throw new IllegalStateException("the trials of an earlier process come before this one's");
        }
        trials.add(record);
        resumed++;
        if (Double.isFinite(record.wallSeconds()) && record.wallSeconds() > 0) {
            earlierSeconds += record.wallSeconds();
        }
    }

    synchronized void build(SideDir dir, Builder.Result result, double checkout, double build) {
        builds.put(dir, result);
        checkoutSeconds += checkout;
        buildSeconds += build;
    }

    synchronized void warning(Warning w) {
        warnings.add(w);
    }

    synchronized List<RunResults.TrialRecord> trials() {
        return List.copyOf(trials);
    }

    /** Returns the trials this process ran, in the order they ended: without those of {@link #resumed(RunResults.TrialRecord)}. */
    synchronized List<RunResults.TrialRecord> ranHere() {
        return List.copyOf(trials.subList(resumed, trials.size()));
    }

    synchronized Snapshot snapshot() {
        return new Snapshot(trials, builds, warnings, checkoutSeconds, buildSeconds, trialSeconds, earlierSeconds);
    }
}
