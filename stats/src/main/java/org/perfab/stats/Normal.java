package org.perfab.stats;

import org.apache.commons.math3.distribution.NormalDistribution;

/** The standard normal distribution's distribution function. */
final class Normal {
    private static final NormalDistribution Z = new NormalDistribution(null, 0, 1);

    private Normal() {
    }

    /** Returns P(Z <= z). */
    static double cdf(double z) {
        return Z.cumulativeProbability(z);
    }
}
