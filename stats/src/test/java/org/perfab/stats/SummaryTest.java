package org.perfab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SummaryTest {
    @Test
    void summarisesAnOddSample() {
        Summary s = Summary.of(Sample.of(3, 1, 2, 10, 4));
        assertEquals(5, s.n());
        assertEquals(4.0, s.mean());
        assertEquals(3.0, s.median());
        assertEquals(Math.sqrt(12.5), s.stddev(), 1e-15);
        assertEquals(100 * Math.sqrt(12.5) / 4.0, s.cv(), 1e-12);
        assertEquals(1.0, s.min());
        assertEquals(10.0, s.max());
    }

    @Test
    void takesTheMeanOfTheTwoMiddleValuesOfAnEvenSample() {
        assertEquals(2.5, Summary.of(Sample.of(4, 1, 3, 2)).median());
    }

    @Test
    void leavesEverythingUndefinedForAnEmptySample() {
        Summary s = Summary.of(Sample.empty());
        assertEquals(0, s.n());
        assertTrue(Double.isNaN(s.mean())
                && Double.isNaN(s.median())
                && Double.isNaN(s.stddev())
                && Double.isNaN(s.cv())
                && Double.isNaN(s.min())
                && Double.isNaN(s.max()));
    }

    @Test
    void hasNoSpreadForASingleValue() {
        Summary s = Summary.of(Sample.of(7));
        assertEquals(7.0, s.mean());
        assertTrue(Double.isNaN(s.stddev()));
        assertTrue(Double.isNaN(s.cv()));
        assertFalse(s.isConstant());
    }

    @Test
    void hasNoCoefficientOfVariationAroundANonPositiveMean() {
        assertTrue(Double.isNaN(Summary.of(Sample.of(-1, 1)).cv()));
        assertTrue(Double.isNaN(Summary.of(Sample.of(-1, -3)).cv()));
    }

    @Test
    void givesTheStudentIntervalOfTheMean() {
        // scipy.stats.t.ppf(0.975, 4) * sqrt(12.5) / sqrt(5)
        assertEquals(
                2.7764451051977934 * Math.sqrt(12.5) / Math.sqrt(5),
                Summary.of(Sample.of(3, 1, 2, 10, 4)).meanHalfWidth95(),
                1e-12);
        assertTrue(Double.isNaN(Summary.of(Sample.of(1)).meanHalfWidth95()));
        assertEquals(0.0, Summary.of(Sample.of(2, 2)).meanHalfWidth95());
    }

    @Test
    void knowsAConstantSample() {
        Summary s = Summary.of(Sample.of(5, 5, 5));
        assertTrue(s.isConstant());
        assertEquals(0.0, s.stddev());
        assertEquals(0.0, s.cv());
    }

    @Test
    void sampleRejectsNonFiniteValuesNamingThePosition() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sample.of(1, Double.NaN));
        assertTrue(e.getMessage().contains("#2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Sample.of(Double.POSITIVE_INFINITY));
    }

    @Test
    void sampleIsSortedOnceAndImmutable() {
        double[] values = {3, 1, 2};
        Sample s = Sample.of(values);
        values[0] = 99;
        double[] sorted = s.sortedValues();
        sorted[0] = 42;
        assertEquals(Sample.of(1, 2, 3), s);
        assertEquals(1.0, s.sortedValues()[0]);
    }
}
