package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NumbersTest {
    @ParameterizedTest
    @CsvSource({
        "12408, 12408", "12408.6, 12409", "68.3149, 68.31", "0.0012345, 0.001234", "1, 1",
        "0, 0", "1000, 1000", "999.96, 1000", "0.00001234, 1.234e-05", "-3.5, -3.5",
        "1e16, 1.000e+16", "NaN, -",
    })
    void formatsValuesWithFourSignificantDigits(double v, String expected) {
        assertEquals(expected, Numbers.value(v));
    }

    @ParameterizedTest
    @CsvSource({"4.94, +4.9%", "-0.04, +0.0%", "-2.45, -2.5%", "0, +0.0%", "NaN, -"})
    void formatsSignedPercents(double pct, String expected) {
        assertEquals(expected, Numbers.signedPercent(pct));
    }

    @ParameterizedTest
    @CsvSource({"0.0031415, 0.0031", "0.45, 0.45", "1, 1", "0.00009, <0.0001", "0.05, 0.05",
        "NaN, -"})
    void formatsPValuesWithTwoSignificantDigits(double p, String expected) {
        assertEquals(expected, Numbers.pValue(p));
    }
}
