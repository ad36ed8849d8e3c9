package org.perfab.report;

import java.math.BigDecimal;

/**
 * A linear axis whose ticks are round numbers: its step is 1, 2 or 5 times a power of ten, and it
 * starts and ends on a tick. Tick {@code k} is the value {@code k * step}; ticks run from
 * {@code first} to {@code last}.
 *
 * @param first the number of the lowest tick (the axis's low end is {@code first * step})
 * @param last the number of the highest tick; greater than {@code first}
 * @param mantissa 1, 2 or 5
 * @param exponent the step's power of ten
 */
record Axis(long first, long last, int mantissa, int exponent) {
    private static final int[] MANTISSAS = {1, 2, 5};
    /** The largest tick number an axis uses: past it a step too small for the values' magnitude is passed over. */
    private static final double MOST_TICK_NUMBER = 1e15;

    Axis {
        if (last <= first) {
            throw new IllegalArgumentException("an axis needs two ticks or more, got " + first + ".." + last);
        }
        if (mantissa != 1 && mantissa != 2 && mantissa != 5) {
            throw new IllegalArgumentException("a round step is 1, 2 or 5 times a power of ten, got " + mantissa);
        }
    }

    /**
     * Returns the axis with the smallest round step that covers {@code lo} to {@code hi} in at
     * most {@code most} ticks (at least 2), its ends on the ticks at or just past them. When
     * {@code lo} equals {@code hi} the axis is widened around it by 5% (or by 1 around 0); a bound
     * that is not finite gives the axis from 0 to 1.
     */
    static Axis covering(double lo, double hi, int most) {
        if (!Double.isFinite(lo) || !Double.isFinite(hi)) {
            lo = 0;
            hi = 1;
        }
        if (hi < lo) {
            double swap = lo;
            lo = hi;
            hi = swap;
        }
        if (!(hi > lo)) {
            double pad = lo == 0 ? 1 : Math.abs(lo) * 0.05;
            lo -= pad;
            hi += pad;
        }
        // Two intervals at least: a range across 0 needs a tick either side of it. Divided before
        // subtracting, so that a range of +-1e308 does not overflow.
        int intervals = Math.max(2, most - 1);
        double raw = hi / intervals - lo / intervals;
        for (int e = (int) Math.floor(Math.log10(raw)) - 1; e < 309; e++) {
            for (int m : MANTISSAS) {
                double step = step(m, e);
                double from = Math.floor(lo / step + 1e-9);
                double to = Math.ceil(hi / step - 1e-9);
                if (to - from <= intervals
                        && to > from
                        && Math.abs(from) < MOST_TICK_NUMBER
                        && Math.abs(to) < MOST_TICK_NUMBER) {
                    return new Axis((long) from, (long) to, m, e);
                }
            }
        }
        return new Axis(0, 1, 1, 0);
    }

    private static double step(int mantissa, int exponent) {
        return exponent >= 0 ? mantissa * Math.pow(10, exponent) : mantissa / Math.pow(10, -exponent);
    }

    /** Returns the distance between two ticks. */
    double step() {
        return step(mantissa, exponent);
    }

    /** Returns the value of tick {@code k}: the double nearest {@code k * step}. */
    double value(long k) {
        return decimal(k).doubleValue();
    }

    /** Returns the value at the axis's low end. */
    double lo() {
        return value(first);
    }

    /** Returns the value at the axis's high end. */
    double hi() {
        return value(last);
    }

    /**
     * Returns tick {@code k} as written on the axis: exactly, with as many decimals as the step
     * has ({@code 12400}, {@code 0.5}, {@code 1.0}, {@code -0.02}), locale-independent.
     */
    String label(long k) {
        return decimal(k).toPlainString();
    }

    private BigDecimal decimal(long k) {
        return BigDecimal.valueOf(k * mantissa, -exponent);
    }

    /**
     * Returns the pixel of {@code v} on an axis drawn from pixel {@code from} (its low end) to
     * pixel {@code to} (its high end, which may be smaller: a vertical axis grows upwards).
     */
    double at(double v, double from, double to) {
        double lo = lo();
        double hi = hi();
        // In halves, so that an axis of +-1e308 does not overflow to infinity.
        return from + (v / 2 - lo / 2) / (hi / 2 - lo / 2) * (to - from);
    }
}
