package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fast t quantile (Newton's method) against Commons Math's bracketing solver, which scipy checks. */
class TQuantileTest {
    @ParameterizedTest(name = "df={0}")
    @CsvSource({"1", "2", "2.9", "3", "3.5", "4.7", "8", "19.3", "38", "120", "10000", "1e9"})
    void agreesWithTheSolverToTenDigits(double df) {
        for (double p : new double[] {1e-6, 0.01, 0.2, 0.5, 0.8, 0.975, 0.995, 0.999999}) {
            double expected = new TDistribution(null, df, 1e-14).inverseCumulativeProbability(p);
            assertEquals(expected, WelchTest.quantile(p, df), 1e-10 * Math.max(1, Math.abs(expected)), "p=" + p);
        }
    }
}
