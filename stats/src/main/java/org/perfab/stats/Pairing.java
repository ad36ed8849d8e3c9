package org.perfab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a run's trials were judged, and what the runner did during the run: whether the interleaved
 * order's pairs judged the cells, the evidence the run's cells gave for it, how far the runner's
 * own speed moved over the run, and how much narrower the pairs made the intervals.
 *
 * <p>Pairs judge when asked to ({@link TrialTest#PAIRED}), or, asked to choose
 * ({@link TrialTest#AUTO}), when the run's cells show that the two trials of a pair moved together
 * beyond chance: each cell's correlation of its pairs' logarithms, in Fisher's z, pooled over the
 * cells (the runner's drift is common to them), is significant at {@value #LEVEL}, one-sided. The
 * choice reads the spreads and covariances of the trials only, never their means, so it knows
 * nothing of the change being tested; and it is strict, so that on a runner whose noise is
 * independent from trial to trial (where pairs take out nothing and cost degrees of freedom) it
 * picks pairs about once in a hundred runs.
 *
 * @param asked the test asked for
 * @param inPairs whether the pairs judged the cells whose trials pair
 * @param cells how many cells gave evidence: 4 pairs or more, with a spread on both sides
 * @param p the one-sided p of the pooled evidence that pairs move together; NaN without such cells
 * @param moved how far the runner's speed moved over the run, in percent: the range of the pairs'
 *     common level, the median over the cells of each pair's mean logarithm against its cell's;
 *     NaN without pairs
 * @param narrower the median, over the cells with an interval both ways, of the width of Welch's
 *     95% interval over the pairs' (above 1: the pairs' are narrower); NaN without such cells
 */
public record Pairing(TrialTest asked, boolean inPairs, int cells, double p, double moved, double narrower) {
    /** The level at which the cells' pooled evidence chooses pairs. */
    public static final double LEVEL = 0.01;

    public Pairing {
        Objects.requireNonNull(asked, "asked");
        if (cells < 0) {
            throw new IllegalArgumentException("cells counts from 0, got " + cells);
        }
    }

    /** Returns the judgement of trials that do not pair, or of a run judged by Welch's test alone. */
    public static Pairing welch(TrialTest asked) {
        return new Pairing(asked, false, 0, Double.NaN, Double.NaN, Double.NaN);
    }

    /**
     * Returns the judgement of the shards of one run, each decided on its own runner's trials: in
     * pairs when any shard was, the cells that gave evidence summed, the runner's largest movement
     * and the median narrowing of the shards judged in pairs; the pooled p of one shard alone (the
     * shards' runners differ, and their evidence does not pool).
     *
     * @throws IllegalArgumentException without shards, or with shards asked for different tests
     */
    public static Pairing merged(List<Pairing> shards) {
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("no shards to merge");
        }
        if (shards.size() == 1) {
            return shards.get(0);
        }
        TrialTest asked = shards.get(0).asked();
        if (shards.stream().anyMatch(s -> s.asked() != asked)) {
            throw new IllegalArgumentException("shards judged with different tests");
        }
        List<Double> narrower = new ArrayList<>();
        double moved = Double.NaN;
        for (Pairing s : shards) {
            if (s.inPairs() && !Double.isNaN(s.narrower())) {
                narrower.add(s.narrower());
            }
            moved = Double.isNaN(moved) || s.moved() > moved ? s.moved() : moved;
        }
        return new Pairing(
                asked,
                shards.stream().anyMatch(Pairing::inPairs),
                shards.stream().mapToInt(Pairing::cells).sum(),
                Double.NaN,
                moved,
                Sample.median(narrower));
    }

    /** Returns the name of the test that judged: {@code paired} or {@code welch}. */
    public String judged() {
        return inPairs ? TrialTest.PAIRED.id() : TrialTest.WELCH.id();
    }

    /**
     * Returns how the trials of a run's cells, each {@code [base, head]}, are judged when
     * {@code asked} is asked for, with what the runner did. Cells whose trials do not pair give no
     * evidence and no figure; {@link TrialTest#WELCH} still measures how the runner moved.
     */
    public static Pairing decide(TrialTest asked, List<Trials[]> cells) {
        List<PairedTest.Pairs> all = new ArrayList<>();
        for (Trials[] c : cells) {
            Trials base = c[0];
            Trials head = c[1];
            boolean[] kb = new boolean[base.size()];
            boolean[] kh = new boolean[head.size()];
            Arrays.fill(kb, true);
            Arrays.fill(kh, true);
            PairedTest.Pairs p = Trials.pairs(base, head, kb, kh);
            if (p.n() > 0 && positive(p)) {
                all.add(p);
            }
        }
        double z = 0;
        int evidence = 0;
        List<Double> widths = new ArrayList<>();
        for (PairedTest.Pairs p : all) {
            double r = correlation(p);
            if (p.n() >= 4 && !Double.isNaN(r)) {
                z += atanh(Math.min(r, 1 - 1e-9)) * Math.sqrt(p.n() - 3.0);
                evidence++;
            }
        }
        double pValue = evidence == 0 ? Double.NaN : 1 - Distributions.normalCdf(z / Math.sqrt(evidence));
        // Pairs judge where 3 or more are left (see KnownTests#PAIRS): with none such, Welch's test judges all.
        boolean pairs = all.stream().anyMatch(p -> p.n() >= 3);
        boolean inPairs = pairs && (asked == TrialTest.PAIRED || asked == TrialTest.AUTO && pValue < LEVEL);
        if (inPairs) {
            Thresholds any = Thresholds.DEFAULT;
            for (PairedTest.Pairs p : all) {
                if (p.n() < 3) {
                    continue;
                }
                Comparison w = Comparison.of(Sample.of(p.base()), Sample.of(p.head()), Direction.LOWER_IS_BETTER, any);
                Comparison q = Comparison.paired(p, Direction.LOWER_IS_BETTER, any, false);
                double ww = w.ciHigh() - w.ciLow();
                double qw = q.ciHigh() - q.ciLow();
                if (ww > 0 && qw > 0) {
                    widths.add(ww / qw);
                }
            }
        }
        return new Pairing(asked, inPairs, evidence, pValue, moved(cells), Sample.median(widths));
    }

    /** Returns whether every value of {@code p} is above 0, as logarithms need. */
    private static boolean positive(PairedTest.Pairs p) {
        for (int i = 0; i < p.n(); i++) {
            if (!(p.base()[i] > 0) || !(p.head()[i] > 0)) {
                return false;
            }
        }
        return true;
    }

    /** Returns the correlation of the pairs' logarithms; NaN when a side has no spread. */
    private static double correlation(PairedTest.Pairs p) {
        int n = p.n();
        double mb = 0;
        double mh = 0;
        for (int i = 0; i < n; i++) {
            mb += Math.log(p.base()[i]) / n;
            mh += Math.log(p.head()[i]) / n;
        }
        double sbb = 0;
        double shh = 0;
        double sbh = 0;
        for (int i = 0; i < n; i++) {
            double b = Math.log(p.base()[i]) - mb;
            double h = Math.log(p.head()[i]) - mh;
            sbb += b * b;
            shh += h * h;
            sbh += b * h;
        }
        return sbb > 0 && shh > 0 ? sbh / Math.sqrt(sbb * shh) : Double.NaN;
    }

    private static double atanh(double r) {
        return 0.5 * Math.log((1 + r) / (1 - r));
    }

    /**
     * Returns the range of the runner's common level over the run's pairs, in percent: for each
     * pair, the median over the cells that measured it of its mean logarithm against its cell's
     * mean; NaN with fewer than 2 pairs.
     */
    private static double moved(List<Trials[]> cells) {
        Map<Integer, List<Double>> byPair = new HashMap<>();
        for (Trials[] c : cells) {
            Map<Integer, Double> levels = c[0].pairLevels(c[1]);
            if (levels.size() < 2) {
                continue;
            }
            double mean = levels.values().stream()
                    .mapToDouble(Double::doubleValue)
                    .average()
                    .orElse(0);
            levels.forEach(
                    (k, v) -> byPair.computeIfAbsent(k, x -> new ArrayList<>()).add(v - mean));
        }
        if (byPair.size() < 2) {
            return Double.NaN;
        }
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (List<Double> v : byPair.values()) {
            double m = Sample.median(v);
            low = Math.min(low, m);
            high = Math.max(high, m);
        }
        return (Math.exp(high - low) - 1) * 100;
    }
}
