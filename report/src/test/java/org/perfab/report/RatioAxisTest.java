package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RatioAxisTest {
    /** The minimum effect of the default thresholds, asked for first. */
    private static final List<Double> MIN_EFFECT = List.of(3.0, -3.0);

    private static RatioAxis axis(double lo, double hi) {
        return RatioAxis.covering(RatioAxis.ratio(lo), RatioAxis.ratio(hi), 0, 500, 5, 5, MIN_EFFECT);
    }

    @ParameterizedTest(name = "{0}% to {1}%: {2}")
    @CsvSource(
            delimiter = ';',
            value = {
                "-12.5; 12.5; -10% -5% -3% 0% +3% +10%",
                "-1; 1; -1% -0.8% -0.6% -0.4% -0.2% 0% +0.2% +0.4% +0.6% +0.8% +1%",
                "0; 3; 0% +0.5% +1% +1.5% +2% +2.5% +3%",
                "-40; 60; -40% -30% -20% -10% 0% +20% +40% +60%",
                "-20; 215; -10% 0% +20% +50% +100% +200%",
                "-80; 215; -80% -50% -20% 0% +50% +100% +200%",
                "-99; 5000; -99% -90% -50% 0% +200% +1000% +5000%",
                "-99.99; 1000000; -99.99% -99.9% -99% -90% 0% +1000% +100000%",
            })
    void ticksRoundChangesForTheRangePresent(double lo, double hi, String ticks) {
        RatioAxis axis = axis(lo, hi);
        assertEquals(
                ticks,
                String.join(
                        " ", axis.ticks().stream().map(RatioAxis.Tick::label).toList()));
        for (int i = 1; i < axis.ticks().size(); i++) {
            RatioAxis.Tick a = axis.ticks().get(i - 1);
            RatioAxis.Tick b = axis.ticks().get(i);
            double apart = axis.at(b) - axis.at(a);
            assertTrue(
                    apart >= (RatioAxis.width(a.label()) + RatioAxis.width(b.label())) / 2 + 10,
                    a.label() + " and " + b.label() + " apart by " + apart);
        }
    }

    @Test
    void placesARiseAndAFallOfOneRatioAsFarFromNoChange() {
        RatioAxis axis = axis(-90, 900);
        double zero = axis.at(0);
        assertEquals(axis.at(100) - zero, zero - axis.at(-50), 1e-9, "×2 and ×½");
        assertEquals(axis.at(900) - zero, zero - axis.at(-90), 1e-9, "×10 and ×0.1");
        assertEquals(2 * (axis.at(100) - zero), axis.at(300) - zero, 1e-9, "×4 twice as far as ×2");
    }

    @Test
    void keepsTheRoomAskedForPastTheRatiosGiven() {
        RatioAxis axis = RatioAxis.covering(0.5, 3.15, 290, 820, 14, 60, MIN_EFFECT);
        assertEquals(290 + 14, axis.atRatio(0.5), 1e-9);
        assertEquals(820 - 60, axis.atRatio(3.15), 1e-9);
        assertEquals(290, axis.atRatio(axis.ratioLo()), 1e-9);
        assertEquals(820, axis.atRatio(axis.ratioHi()), 1e-9);
    }

    @Test
    void alwaysReachesNoChange() {
        RatioAxis axis = RatioAxis.covering(2, 3, 0, 500, 5, 5, List.of());
        assertTrue(axis.ratioLo() < 1 && axis.at(0) >= 5, "from " + axis.ratioLo());
        assertEquals("0%", axis.ticks().get(0).label());
    }

    @Test
    void placesNoChangeOfMinus100OrLess() {
        assertFalse(RatioAxis.places(-100));
        assertFalse(RatioAxis.places(-250));
        assertFalse(RatioAxis.places(Double.NaN));
        assertFalse(RatioAxis.places(Double.POSITIVE_INFINITY));
        assertTrue(RatioAxis.places(-99.999));
        assertTrue(RatioAxis.places(1e300));
    }

    @Test
    void coversTheWidestRangeADoubleHolds() {
        RatioAxis axis = RatioAxis.covering(Double.MIN_VALUE, Double.MAX_VALUE, 0, 500, 5, 5, MIN_EFFECT);
        assertTrue(Double.isFinite(axis.ratioHi()) && axis.ratioLo() > 0, axis.toString());
        assertTrue(axis.atRatio(Double.MIN_VALUE) >= 0 && axis.atRatio(Double.MAX_VALUE) <= 500, axis.toString());
        assertTrue(axis.ticks().stream().anyMatch(t -> t.label().equals("0%")));
    }

    @ParameterizedTest
    @CsvSource({"0, 0%", "-50, -50%", "-99.90, -99.9%", "200, +200%", "2.50, +2.5%", "1E+5, +100000%"})
    void writesATickInTheReportsNotation(String pct, String label) {
        assertEquals(label, RatioAxis.label(new BigDecimal(pct)));
    }
}
