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

    private Numbers() {}

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
            // Math.rint rounds half to even, exactly, and under 1e15 every integer is a long.
            return Long.toString((long) Math.rint(v));
        }
        return significant(v, 4);
    }

    /** Returns a signed percentage with one decimal: {@code +4.9%}, {@code -0.3%}, {@code +0.0%}. */
    static String signedPercent(double pct) {
        if (Double.isNaN(pct)) {
            return UNDEFINED;
        }
        String s = oneDecimal(pct);
        return s.startsWith("-") && !s.equals("-0.0") ? s + "%" : "+" + (s.startsWith("-") ? s.substring(1) : s) + "%";
    }

    /** Returns a ratio with one decimal and a times sign: {@code 2.1x}. */
    static String ratio(double r) {
        if (Double.isNaN(r)) {
            return UNDEFINED;
        }
        return oneDecimal(r) + "x";
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
        String s = halfUpToOneDecimal(Double.toString(v));
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
        return significant(p, 2);
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

    /**
     * Returns {@code v}, of magnitude from 1e-4 to under 1000, rounded half to even to {@code digits}
     * significant digits of its exact binary value, trailing zeros dropped, without exponent: what
     * {@link BigDecimal} gives, by arithmetic on a long (a table of thousands of rows formats each
     * of its figures so). A value that lies too near a half for the double arithmetic to tell which
     * way it rounds goes through {@link BigDecimal}.
     */
    static String significant(double v, int digits) {
        double magnitude = Math.abs(v);
        double low = POWERS[digits - 1];
        int scale = digits - 1 - (int) Math.floor(Math.log10(magnitude));
        double x = magnitude * POWERS[scale];
        if (x < low) {
            x = magnitude * POWERS[++scale];
        } else if (x >= low * 10) {
            x = magnitude * POWERS[--scale];
        }
        double fraction = x - Math.floor(x);
        if (x < low || x >= low * 10 || Math.abs(fraction - 0.5) < 1e-6) {
            return new BigDecimal(v)
                    .round(new MathContext(digits, RoundingMode.HALF_EVEN))
                    .stripTrailingZeros()
                    .toPlainString();
        }
        long n = (long) Math.floor(x) + (fraction > 0.5 ? 1 : 0);
        while (scale > 0 && n % 10 == 0) {
            n /= 10;
            scale--;
        }
        return plain(v < 0, n, scale);
    }

    /** Powers of ten from 10^0 to 10^9, exact as doubles. */
    private static final double[] POWERS = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};

    /** Returns {@code n / 10^scale} written out, {@code -} before when {@code negative} and not 0. */
    private static String plain(boolean negative, long n, int scale) {
        String digits = Long.toString(n);
        StringBuilder s = new StringBuilder(digits.length() + scale + 3);
        if (negative && n != 0) {
            s.append('-');
        }
        if (scale == 0) {
            return s.append(digits).toString();
        }
        if (digits.length() <= scale) {
            s.append("0.");
            s.append("0".repeat(scale - digits.length()));
            return s.append(digits).toString();
        }
        return s.append(digits, 0, digits.length() - scale)
                .append('.')
                .append(digits, digits.length() - scale, digits.length())
                .toString();
    }

    /**
     * Returns the decimal {@code text} (as {@link Double#toString} writes it) rounded half up to one
     * decimal, as {@code new BigDecimal(text).setScale(1, HALF_UP).toPlainString()} does: by its
     * digits, without building the decimal (text with an exponent still does).
     */
    private static String halfUpToOneDecimal(String text) {
        int point = text.indexOf('.');
        boolean negative = text.startsWith("-");
        int from = negative ? 1 : 0;
        if (point < 0 || text.indexOf('E') >= 0 || point - from > 15 || point + 1 >= text.length()) {
            return new BigDecimal(text).setScale(1, RoundingMode.HALF_UP).toPlainString();
        }
        long n = Long.parseLong(text, from, point, 10) * 10 + (text.charAt(point + 1) - '0');
        if (point + 2 < text.length() && text.charAt(point + 2) >= '5') {
            n++;
        }
        return plain(negative, n, 1);
    }
}
