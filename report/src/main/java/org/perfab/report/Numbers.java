package org.perfab.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.function.UnaryOperator;
import org.perfab.model.Units;

/** Formats the numbers of a table for people; every method is locale-independent. */
final class Numbers {
    /** What a renderer shows for a figure that is undefined (NaN). */
    static final String UNDEFINED = "-";

    private Numbers() {
    }

    /**
     * Returns a measured value with four significant digits, all integer digits kept, and no
     * exponent between 1e-4 and 1e15: {@code 12408}, {@code 68.31}, {@code 0.001234}.
     */
    static String value(double v) {
        if (Double.isNaN(v)) {
            return UNDEFINED;
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0.0) {
            return "0";
        }
        double magnitude = Math.abs(v);
        if (magnitude < 1e-4 || magnitude >= 1e15) {
            return String.format(Locale.ROOT, "%.3e", v);
        }
        if (magnitude >= 1000) {
            return new BigDecimal(v).setScale(0, RoundingMode.HALF_EVEN).toPlainString();
        }
        return new BigDecimal(v).round(new MathContext(4, RoundingMode.HALF_EVEN))
                .stripTrailingZeros().toPlainString();
    }

    /** Returns a signed percentage with one decimal: {@code +4.9%}, {@code -0.3%}, {@code +0.0%}. */
    static String signedPercent(double pct) {
        if (Double.isNaN(pct)) {
            return UNDEFINED;
        }
        String s = oneDecimal(pct);
        return s.startsWith("-") && !s.equals("-0.0") ? s + "%" : "+" + (s.startsWith("-") ? s.substring(1) : s) + "%";
    }

    /** Returns an unsigned percentage with one decimal: {@code 1.2%}. */
    static String percent(double pct) {
        if (Double.isNaN(pct)) {
            return UNDEFINED;
        }
        return oneDecimal(pct) + "%";
    }

    /**
     * Returns {@code v} with one decimal, rounded half up from its shortest decimal form, as
     * {@code String.format("%.1f")} does, at a fraction of its cost (a table of 10,000 rows formats
     * 100,000 of them).
     */
    static String oneDecimal(double v) {
        if (Double.isInfinite(v)) {
            return v > 0 ? "Infinity" : "-Infinity";
        }
        String s = new BigDecimal(Double.toString(v)).setScale(1, RoundingMode.HALF_UP).toPlainString();
        return s.equals("0.0") && (v < 0 || Double.doubleToRawLongBits(v) == Long.MIN_VALUE) ? "-0.0" : s;
    }

    /** Returns the 95% interval as {@code [-7.1%, -2.6%]}. */
    static String interval(double low, double high) {
        if (Double.isNaN(low) || Double.isNaN(high)) {
            return UNDEFINED;
        }
        return "[" + signedPercent(low) + ", " + signedPercent(high) + "]";
    }

    /**
     * Returns a p-value with two significant digits ({@code 0.0031}, {@code 0.45}), or
     * {@code <0.0001} below that.
     */
    static String pValue(double p) {
        if (Double.isNaN(p)) {
            return UNDEFINED;
        }
        if (p < 1e-4) {
            return "<0.0001";
        }
        return new BigDecimal(p).round(new MathContext(2, RoundingMode.HALF_EVEN))
                .stripTrailingZeros().toPlainString();
    }

    /** Returns the unit both sides of a row are shown in: the one that suits the base, else the head. */
    static Units.Display display(String unit, double base, double head) {
        return Units.display(unit, Double.isNaN(base) || base == 0 ? head : base);
    }

    /**
     * Returns {@code v} in the unit {@code d} shows ({@code 37.42 ms/op}, {@code 12.41k msg/s}), the
     * unit, which a pull request chose, made plain; "-" for NaN.
     */
    static String shown(double v, Units.Display d) {
        return shown(v, d, Untrusted::plain);
    }

    /** Returns {@link #shown(double, Units.Display)} with the unit made safe by {@code unit}, for a format of its own. */
    static String shown(double v, Units.Display d, UnaryOperator<String> unit) {
        if (Double.isNaN(v)) {
            return UNDEFINED;
        }
        String number = value(v * d.factor()) + d.prefix();
        return d.unit().isEmpty() ? number : number + " " + unit.apply(d.unit());
    }
}
