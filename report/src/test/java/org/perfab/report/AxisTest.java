package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AxisTest {
    @ParameterizedTest(name = "{0} to {1} in {2} ticks: {3}")
    @CsvSource(
            delimiter = ';',
            value = {
                "-12.5; 12.5; 11; -15 -10 -5 0 5 10 15",
                "11704; 12511; 6; 11600 11800 12000 12200 12400 12600",
                "0.0012; 0.0031; 5; 0.001 0.002 0.003 0.004",
                "0.1; 0.7; 7; 0.1 0.2 0.3 0.4 0.5 0.6 0.7",
                "0.1; 0.7; 6; 0.0 0.2 0.4 0.6 0.8",
                "699.372; 701.231; 6; 699.0 699.5 700.0 700.5 701.0 701.5",
                "5; 5; 6; 4.6 4.8 5.0 5.2 5.4",
                "0; 0; 3; -1 0 1",
                "0; 24; 10; 0 5 10 15 20 25",
                "-40.5; 62.6; 11; -60 -40 -20 0 20 40 60 80",
                "NaN; 3; 6; 0.0 0.2 0.4 0.6 0.8 1.0",
                "-0.3; 0.4; 2; -0.5 0.0 0.5",
            })
    void coversTheValuesWithRoundTicks(double lo, double hi, int most, String ticks) {
        Axis axis = Axis.covering(lo, hi, most);
        List<String> labels = new ArrayList<>();
        for (long k = axis.first(); k <= axis.last(); k++) {
            labels.add(axis.label(k));
        }
        assertEquals(ticks, String.join(" ", labels));
    }

    @Test
    void coversTheWidestRangeADoubleHolds() {
        Axis axis = Axis.covering(-1e308, 1e308, 6);
        assertTrue(axis.at(-1e308, 0, 100) >= 0 && axis.at(1e308, 0, 100) <= 100, axis.toString());
    }

    @Test
    void placesValuesBetweenItsPixels() {
        Axis axis = Axis.covering(-12.5, 12.5, 11);
        assertEquals(300, axis.at(-15, 300, 800), 1e-9);
        assertEquals(550, axis.at(0, 300, 800), 1e-9);
        assertEquals(800, axis.at(15, 300, 800), 1e-9);
        assertEquals(100, axis.at(15, 200, 100), 1e-9, "upwards, as a vertical axis is drawn");
    }
}
