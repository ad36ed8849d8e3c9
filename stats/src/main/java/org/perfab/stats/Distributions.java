package org.perfab.stats;

import org.apache.commons.statistics.distribution.FDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.distribution.TDistribution;
import org.apache.commons.statistics.inference.MannWhitneyUTest;
import org.apache.commons.statistics.inference.PValueMethod;
import org.apache.commons.statistics.inference.WilcoxonSignedRankTest;

/**
 * The distribution and rank arithmetic perfab's tests need, from Apache Commons Statistics: the one
 * class that touches the library, so that none of its types leaves this package.
 */
final class Distributions {
    /** Up to this many values a side, Mann-Whitney's p is exact (without ties), as benchstat's. */
    static final int EXACT_UP_TO = 50;

    private static final NormalDistribution Z = NormalDistribution.of(0, 1);
    private static final MannWhitneyUTest EXACT =
            MannWhitneyUTest.withDefaults().with(PValueMethod.EXACT);
    private static final MannWhitneyUTest ASYMPTOTIC =
            MannWhitneyUTest.withDefaults().with(PValueMethod.ASYMPTOTIC);

    private Distributions() {}

    /** Returns P(Z <= z) of the standard normal distribution. */
    static double normalCdf(double z) {
        return Z.cumulativeProbability(z);
    }

    /** Returns the {@code probability} quantile of the standard normal distribution. */
    static double normalQuantile(double probability) {
        return Z.inverseCumulativeProbability(probability);
    }

    /** Returns Student's t with {@code df > 0} degrees of freedom. */
    static StudentT t(double df) {
        return new StudentT(TDistribution.of(df));
    }

    /** Student's t of some degrees of freedom: made once, asked many times (Newton's steps). */
    static final class StudentT {
        private final TDistribution t;

        private StudentT(TDistribution t) {
            this.t = t;
        }

        /** Returns P(T > x), to full relative precision far in the upper tail. */
        double survival(double x) {
            return t.survivalProbability(x);
        }

        /** Returns the density at {@code x}. */
        double density(double x) {
            return t.density(x);
        }

        /** Returns the {@code probability} quantile, from the library's own solver. */
        double quantile(double probability) {
            return t.inverseCumulativeProbability(probability);
        }
    }

    /**
     * Returns Wilcoxon's signed-rank test of the differences {@code d}: {@code [w, p]}, W the sum of
     * the ranks of the positive differences (zeros left out, ties given their mean rank), and the
     * two-sided p exact when there are at most {@value #EXACT_UP_TO} differences, none zero or tied
     * (scipy's {@code wilcoxon(method="exact")}), else the normal approximation with a continuity
     * correction. When every difference is zero, p is 1.
     */
    static double[] signedRank(double[] d) {
        if (java.util.Arrays.stream(d).allMatch(x -> x == 0)) {
            return new double[] {0, 1};
        }
        WilcoxonSignedRankTest.Result r = WilcoxonSignedRankTest.withDefaults().test(d);
        return new double[] {r.getStatistic(), Double.isNaN(r.getPValue()) ? 1 : r.getPValue()};
    }

    /** Returns P(F > f) of Fisher's F with {@code d1} and {@code d2} degrees of freedom; 0 for an infinite f. */
    static double fUpper(double f, double d1, double d2) {
        return Double.isInfinite(f) ? 0 : FDistribution.of(d1, d2).survivalProbability(f);
    }

    /** Returns the two-sided p of a t statistic {@code t} with {@code df} degrees of freedom. */
    static double tTwoSided(double t, double df) {
        return 2 * TDistribution.of(df).cumulativeProbability(-Math.abs(t));
    }

    /**
     * Returns Mann-Whitney's test of {@code head} against {@code base}, both non-empty: {@code [u, p]}
     * with U the pairs with head above base (ties a half), and the two-sided p exact when neither
     * side has more than {@value #EXACT_UP_TO} values and no value is tied (scipy's
     * {@code mannwhitneyu(method="exact")}); otherwise the normal approximation with the tie
     * correction of the variance and a continuity correction ({@code method="asymptotic"}). When
     * every value is the same, p is 1.
     */
    static double[] mannWhitney(double[] base, double[] head) {
        MannWhitneyUTest test = base.length > EXACT_UP_TO || head.length > EXACT_UP_TO ? ASYMPTOTIC : EXACT;
        MannWhitneyUTest.Result r = test.test(head, base);
        double p = Double.isNaN(r.getPValue()) ? 1 : r.getPValue();
        return new double[] {r.getStatistic(), p};
    }
}
