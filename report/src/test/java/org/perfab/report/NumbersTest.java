package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;
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
    @CsvSource({"0.0031415, 0.0031", "0.45, 0.45", "1, 1", "0.00009, <0.0001", "0.05, 0.05", "NaN, -"})
    void formatsPValuesWithTwoSignificantDigits(double p, String expected) {
        assertEquals(expected, Numbers.pValue(p));
    }

    @Test
    void roundsAsBigDecimalDoesWhateverTheValue() {
        // The long arithmetic must agree with the exact decimal of every double: values of every
        // magnitude shown, with few decimals (ties of the decimal text) and many (of the binary value).
        Random random = new Random(16);
        for (int i = 0; i < 200_000; i++) {
            double v = i % 2 == 0
                    ? Math.pow(10, -4 + random.nextDouble() * 7)
                    : (random.nextInt(2_000_000) + (i % 4 == 1 ? 0.5 : 0)) / Math.pow(10, random.nextInt(8));
            v = random.nextBoolean() ? -v : v;
            double magnitude = Math.abs(v);
            if (magnitude >= 1e-4 && magnitude < 1000) {
                assertEquals(
                        new BigDecimal(v)
                                .round(new MathContext(4, RoundingMode.HALF_EVEN))
                                .stripTrailingZeros()
                                .toPlainString(),
                        Numbers.value(v),
                        "value " + v);
            }
            if (magnitude >= 1000 && magnitude < 1e15) {
                assertEquals(
                        new BigDecimal(v).setScale(0, RoundingMode.HALF_EVEN).toPlainString(),
                        Numbers.value(v),
                        "value " + v);
            }
            if (magnitude >= 1e-4 && magnitude <= 1) {
                assertEquals(
                        new BigDecimal(magnitude)
                                .round(new MathContext(2, RoundingMode.HALF_EVEN))
                                .stripTrailingZeros()
                                .toPlainString(),
                        Numbers.pValue(magnitude),
                        "p " + magnitude);
            }
            String oneDecimal = new BigDecimal(Double.toString(v))
                    .setScale(1, RoundingMode.HALF_UP)
                    .toPlainString();
            assertEquals(
                    oneDecimal.equals("0.0") && v < 0 ? "-0.0" : oneDecimal, Numbers.oneDecimal(v), "one decimal " + v);
        }
    }
}
