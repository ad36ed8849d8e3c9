package org.perfab.ab;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.perfab.model.Measurement;
import org.perfab.model.RunResults;
import org.perfab.model.Side;

/**
 * What the rounds of a run cost, and so what is left of it: a trial of the first round takes what
 * the warm-ups took (a counted trial, what counting the benchmark each warm-up counted takes for
 * every benchmark, several at once), a trial of a round takes what the trials of that round took so
 * far, and a later round measures only the cells still open, so its trials take the open cells'
 * share of the last round's. A function of the trials run: no clock of its own.
 */
final class Rounds {
    /** A budget past this many seconds is given in whole minutes. */
    private static final long MINUTES_FROM = 120;

    private Rounds() {}

    /**
     * How a trial counts the benchmarks of its harness one at a time (see {@link PerBenchmark}).
     *
     * @param benchmarks how many it counts, from 1
     * @param workers how many it counts at once, from 1
     * @param timed whether it also runs the harness for its own timings, as each warm-up does
     */
    record Counted(int benchmarks, int workers, boolean timed) {
        Counted {
            if (benchmarks < 1 || workers < 1) {
                throw new IllegalArgumentException(benchmarks + " benchmarks, " + workers + " at once");
            }
        }
    }

    /**
     * Returns the look before the one at {@code trials} trials per side in {@code sizes} (the looks'
     * trials per side): its trials per side, 0 before the first.
     */
    static int previous(List<Integer> sizes, int trials) {
        int before = 0;
        for (int n : sizes) {
            if (n >= trials) {
                break;
            }
            before = n;
        }
        return before;
    }

    /**
     * Returns the seconds one trial of a round that measures the cells named {@code open} (every
     * cell, when empty) will take, from the counted trials of {@code trials} numbered {@code from} on
     * (the last round's): each trial's wall time times the open cells' share of it, by the time the
     * harness said each cell took where it said so for every cell of the trial, else by their number.
     * A trial that counted its benchmarks {@code workers} at a time (1 for one that runs them in
     * turn) ran them side by side: fewer open benchmarks than that share fewer workers. NaN when no
     * such trial worked.
     */
    static double seconds(List<RunResults.TrialRecord> trials, int from, Collection<String> open, int workers) {
        Set<String> wanted = Set.copyOf(open);
        double sum = 0;
        int n = 0;
        for (RunResults.TrialRecord t : trials) {
            if (t.warmup() || t.trial() < from || t.status() != RunResults.Status.OK) {
                continue;
            }
            Set<String> names = new HashSet<>();
            for (Measurement m : t.measurements()) {
                names.add(m.cell().name());
            }
            if (names.isEmpty()) {
                continue;
            }
            double share;
            if (wanted.isEmpty()) {
                share = 1;
            } else if (t.seconds().keySet().containsAll(names)) {
                double all = 0;
                double mine = 0;
                for (String name : names) {
                    double s = t.seconds().get(name);
                    all += s;
                    mine += wanted.contains(name) ? s : 0;
                }
                share = all > 0 ? mine / all : 1;
            } else {
                long mine = names.stream().filter(wanted::contains).count();
                share = mine
                        / (double) names.size()
                        * Math.min(workers, names.size())
                        / Math.max(1, Math.min(workers, mine));
            }
            sum += t.wallSeconds() * share;
            n++;
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /**
     * Returns the seconds of the round that takes a run from the look at {@code trials} trials per
     * side to the one at {@code next}, measuring the cells named {@code open} (every cell, when
     * empty): two sides of the new trials, each as long as those cells' share of a trial of the last
     * round (see {@link #seconds}). NaN when no trial of the last round worked.
     *
     * @param sizes the looks' trials per side
     * @param workers how many benchmarks a trial counts at once; 1 for a harness that runs them in turn
     */
    static double next(
            List<RunResults.TrialRecord> done,
            List<Integer> sizes,
            int trials,
            int next,
            Collection<String> open,
            int workers) {
        return seconds(done, previous(sizes, trials), open, workers) * 2 * (next - trials);
    }

    /**
     * Returns what is left of a run whose trials so far are {@code done}, as they price it: the round
     * running now runs to {@code trials} per side (one of {@code sizes}, the looks' trials per side;
     * a run of a fixed size has one look), after {@code warmup} warm-ups per side when it is the
     * first, and measures the cells named {@code open} (every cell, when empty).
     *
     * <p>A trial of a side costs the mean of that side's trials of this round so far; before any,
     * the first round's costs its side's warm-ups, and a later round's the open cells' share of a
     * trial of the round before it. A trial that counts each benchmark ({@code counted}) costs, before
     * any, the mean time the warm-ups took to count one benchmark, times the benchmarks, over the
     * benchmarks counted at once: a warm-up readies the side and counts one benchmark, which says
     * nothing else of a counted trial. A side not priced yet costs what the other does. The most that
     * is left takes every later look, each as costly a trial pair as this round's: every cell open
     * now stays open. Disturbed trials replaced at the end are not foreseen.
     */
    static Events.Estimate estimate(
            List<Integer> sizes,
            int trials,
            int warmup,
            Collection<String> open,
            List<RunResults.TrialRecord> done,
            Optional<Counted> counted) {
        int look = (int) Math.max(1, sizes.stream().filter(n -> n <= trials).count());
        int most = Math.max(trials, sizes.get(sizes.size() - 1));
        int from = previous(sizes, trials);
        Optional<Events.Counting> counting = Optional.empty();
        double base = mean(done, t -> t.side() == Side.BASE && thisRound(t, from, trials), false);
        double head = mean(done, t -> t.side() == Side.HEAD && thisRound(t, from, trials), false);
        if (Double.isNaN(base) && Double.isNaN(head)) {
            if (from > 0) {
                base = seconds(
                        done,
                        previous(sizes, from),
                        open,
                        counted.map(Counted::workers).orElse(1));
                head = base;
            } else if (counted.isPresent()) {
                double each = mean(done, RunResults.TrialRecord::warmup, true);
                if (!Double.isNaN(each)) {
                    Counted c = counted.get();
                    int at = Math.min(c.workers(), c.benchmarks());
                    double count = each * c.benchmarks() / at;
                    counting = Optional.of(new Events.Counting(c.benchmarks(), at, each));
                    base = count + (c.timed() ? zeroIfNaN(warmups(done, Side.BASE)) : 0);
                    head = count + (c.timed() ? zeroIfNaN(warmups(done, Side.HEAD)) : 0);
                }
            } else {
                base = warmups(done, Side.BASE);
                head = warmups(done, Side.HEAD);
            }
        }
        double pair = (Double.isNaN(base) ? head : base) + (Double.isNaN(head) ? base : head);
        long warmed = done.stream().filter(RunResults.TrialRecord::warmup).count();
        long warmLeft = from == 0 ? Math.max(0, 2L * warmup - warmed) : 0;
        double warmEach = mean(done, RunResults.TrialRecord::warmup, false);
        long ran = done.stream().filter(t -> !t.warmup() && t.trial() < trials).count();
        long left = Math.max(0, 2L * trials - ran);
        double toLook =
                (warmLeft == 0 ? 0 : warmLeft * (Double.isNaN(warmEach) ? pair / 2 : warmEach)) + left * pair / 2;
        return new Events.Estimate(
                look,
                Math.max(look, sizes.size()),
                trials,
                most,
                pair,
                toLook,
                toLook + (most - trials) * pair,
                counting);
    }

    /**
     * Returns a budget that lets trials of {@code seconds} in all run: a tenth more, in whole
     * minutes from two minutes, else in whole seconds.
     */
    static Duration enough(double seconds) {
        // A tenth more, less what binary fractions add to it: 100 s gives 110 s, not 111 s.
        long s = Math.max(1, (long) Math.ceil(seconds * 1.1 - 1e-9));
        return s >= MINUTES_FROM ? Duration.ofMinutes((s + 59) / 60) : Duration.ofSeconds(s);
    }

    /** Returns whether {@code t} is a counted trial of the round from {@code from} to {@code trials} per side. */
    private static boolean thisRound(RunResults.TrialRecord t, int from, int trials) {
        return !t.warmup() && t.trial() >= from && t.trial() < trials;
    }

    /** Returns the mean wall time of {@code side}'s warm-ups that worked; NaN when none did. */
    private static double warmups(List<RunResults.TrialRecord> done, Side side) {
        return mean(done, t -> t.warmup() && t.side() == side, false);
    }

    /**
     * Returns the mean over the trials of {@code done} that {@code which} takes and that worked: of
     * their wall times, or, for {@code benchmarks}, of the times they give their benchmarks. NaN when
     * there is none.
     */
    private static double mean(
            List<RunResults.TrialRecord> done, Predicate<RunResults.TrialRecord> which, boolean benchmarks) {
        double sum = 0;
        int n = 0;
        for (RunResults.TrialRecord t : done) {
            if (!which.test(t) || t.status() != RunResults.Status.OK) {
                continue;
            }
            if (benchmarks) {
                for (double s : t.seconds().values()) {
                    sum += s;
                    n++;
                }
            } else {
                sum += t.wallSeconds();
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    private static double zeroIfNaN(double v) {
        return Double.isNaN(v) ? 0 : v;
    }
}
