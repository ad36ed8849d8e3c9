package org.perfab.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The forest plot's axis: the ratio of head to baseline on a logarithmic scale, ticked in the
 * report's notation, percent changes. On it ×2 and ×½ (+100% and -50%) lie the same distance either
 * side of no change, and a change of +5000% or -99% has its place beside one of +2%. It runs from
 * the ratio {@code ratioLo} at pixel {@code from} to {@code ratioHi} at pixel {@code to}. A change
 * of -100% or less (a ratio of 0 or below) has no place on it: see {@link #places}.
 *
 * <p>Ticks are round changes: {@code 0%} and those asked for (the minimum effect) first, each
 * where its label fits; then +100%, +1000% and -50%, -90%, -99% and on; then, on each side where the
 * scale is near enough linear (falls short of -50%, rises short of +100%), the multiples of the
 * finest step of 1, 2 or 5 times a power of ten that keeps them apart ({@code -20%, -10%},
 * {@code +20%, +40%, +60%}); then 5 and 2 times a power of ten further out ({@code +500%},
 * {@code +200%}, and falls whose ratio is so: {@code -95%}, {@code -80%}). A round tick is taken
 * only where its label fits and it lies some way from every other round one: so every tick can be
 * read, and which ones there are follows the range. A tick lies on the axis; its label may reach past the
 * axis's end by half its width.
 *
 * @param ratioLo the ratio at the axis's low end, in (0, ratioHi)
 * @param ratioHi the ratio at its high end
 * @param from the pixel of {@code ratioLo}
 * @param to the pixel of {@code ratioHi}, greater than {@code from}
 * @param ticks the ticks, lowest first
 */
record RatioAxis(double ratioLo, double ratioHi, double from, double to, List<Tick> ticks) {
    /** The size, in pixels, of the font the ticks and the changes beside the marks are drawn in. */
    static final double FONT = 11;
    /** The least room, in pixels, between two tick labels. */
    private static final double TICK_GAP = 10;
    /** The least distance, in pixels, between two round ticks: closer, the axis reads as a ruler. */
    private static final double TICK_SPACING = 48;

    private static final BigDecimal HALF = new BigDecimal("0.5");
    /** The power of ten past which no tick is looked for: a double's range. */
    private static final int MOST_EXPONENT = 308;

    /**
     * A tick.
     *
     * @param pct the change it marks, exactly, in percent; above -100
     * @param label the change as written: {@code -50%}, {@code 0%}, {@code +2.5%}
     */
    record Tick(BigDecimal pct, String label) {}

    RatioAxis {
        if (!(ratioLo > 0 && ratioHi > ratioLo && Double.isFinite(ratioHi))) {
            throw new IllegalArgumentException(
                    "a ratio axis runs between two positive ratios, got " + ratioLo + ".." + ratioHi);
        }
        if (!(to > from)) {
            throw new IllegalArgumentException("an axis runs left to right, got " + from + ".." + to);
        }
        ticks = List.copyOf(ticks);
    }

    /**
     * Returns the axis from pixel {@code from} to pixel {@code to} on which the ratios {@code lo} to
     * {@code hi} lie {@code roomLo} and {@code roomHi} pixels inside its ends, and 1 always lies,
     * with its ticks (see the class's comment): {@code first} are the changes, in percent, ticked
     * before any round one, each where it fits. Bounds that are not positive and finite are left
     * out; near the ends of a double's range the room shrinks.
     */
    static RatioAxis covering(
            double lo, double hi, double from, double to, double roomLo, double roomHi, List<Double> first) {
        double a = Math.min(0, lo > 0 && Double.isFinite(lo) ? StrictMath.log(lo) : 0);
        double b = Math.max(0, hi > 0 && Double.isFinite(hi) ? StrictMath.log(hi) : 0);
        if (b - a < 1e-9) {
            a -= 0.01;
            b += 0.01;
        }
        double inner = to - from - roomLo - roomHi;
        if (!(inner > 0)) {
            throw new IllegalArgumentException("no room between the ends of the axis: " + from + ".." + to);
        }
        double perPixel = (b - a) / inner;
        // The room shrinks where a double's range ends.
        double ratioLo = Math.max(Double.MIN_VALUE, StrictMath.exp(a - roomLo * perPixel));
        double ratioHi = Math.min(Double.MAX_VALUE, StrictMath.exp(b + roomHi * perPixel));
        RatioAxis bare = new RatioAxis(ratioLo, ratioHi, from, to, List.of());
        return new RatioAxis(ratioLo, ratioHi, from, to, bare.ticks(first));
    }

    /** Returns whether a change of {@code pct} percent has a place on the axis: finite, and above -100%. */
    static boolean places(double pct) {
        return Double.isFinite(pct) && ratio(pct) > 0;
    }

    /** Returns the ratio of head to baseline of a change of {@code pct} percent. */
    static double ratio(double pct) {
        return 1 + pct / 100;
    }

    /** Returns the pixel of a change of {@code pct} percent, which {@link #places} must hold. */
    double at(double pct) {
        return atRatio(ratio(pct));
    }

    /** Returns the pixel of {@code ratio}, which must be positive. */
    double atRatio(double ratio) {
        double lo = StrictMath.log(ratioLo);
        return from + (StrictMath.log(ratio) - lo) / (StrictMath.log(ratioHi) - lo) * (to - from);
    }

    /** Returns the pixel of tick {@code t}. */
    double at(Tick t) {
        return atRatio(BigDecimal.ONE.add(t.pct().movePointLeft(2)).doubleValue());
    }

    /**
     * Returns about how wide {@code label} is drawn, in pixels, at {@link #FONT}: from the advances
     * of DejaVu Sans, wider than most fonts a browser picks for the page's {@code system-ui}, so
     * that a label given this room has it. Meant for changes, ticks and figures (signs, digits,
     * points, percent); any other character counts as wide.
     */
    static double width(String label) {
        double em = 0;
        for (int i = 0; i < label.length(); i++) {
            char c = label.charAt(i);
            em += c >= '0' && c <= '9'
                    ? 0.64
                    : switch (c) {
                        case '+', '\u2212' -> 0.84;
                        case '-' -> 0.37;
                        case '%' -> 0.95;
                        case '.', ',', ' ' -> 0.32;
                        case '[', ']' -> 0.4;
                        default -> 1.0;
                    };
        }
        return em * FONT + 1;
    }

    /** Returns {@code pct} as a tick writes it: {@code -99.5%}, {@code 0%}, {@code +200%}. */
    static String label(BigDecimal pct) {
        String s = pct.signum() == 0 ? "0" : pct.stripTrailingZeros().toPlainString();
        return (pct.signum() > 0 ? "+" : "") + s + "%";
    }

    private List<Tick> ticks(List<Double> first) {
        List<Tick> ticks = new ArrayList<>();
        // For each tick taken: its pixel, the ends of its label, and 1 for a round one.
        List<double[]> taken = new ArrayList<>();
        take(ticks, taken, BigDecimal.ZERO, false);
        for (double pct : first) {
            if (Double.isFinite(pct) && pct > -100) {
                take(ticks, taken, BigDecimal.valueOf(pct), false);
            }
        }
        List<Candidate> far = far();
        far.stream().filter(c -> c.rank() == 0).forEach(c -> take(ticks, taken, c.pct(), true));
        for (int sign : new int[] {1, -1}) {
            near(sign).forEach(pct -> take(ticks, taken, pct, true));
        }
        far.stream().filter(c -> c.rank() > 0).forEach(c -> take(ticks, taken, c.pct(), true));
        ticks.sort(Comparator.comparing(Tick::pct));
        return ticks;
    }

    /**
     * Takes the tick of {@code pct} when it lies on the axis and its label keeps its gap from
     * every label taken, and, for a {@code round} one, its spacing from every round one.
     */
    private void take(List<Tick> ticks, List<double[]> taken, BigDecimal pct, boolean round) {
        Tick t = new Tick(pct, label(pct));
        if (ticks.stream().anyMatch(k -> k.pct().compareTo(pct) == 0)) {
            return;
        }
        double x = at(t);
        double half = width(t.label()) / 2;
        if (x < from
                || x > to
                || taken.stream()
                        .anyMatch(k -> round && k[3] > 0 && Math.abs(x - k[0]) < TICK_SPACING
                                || x - half < k[2] + TICK_GAP && x + half > k[1] - TICK_GAP)) {
            return;
        }
        ticks.add(t);
        taken.add(new double[] {x, x - half, x + half, round ? 1 : 0});
    }

    /**
     * Returns the round changes to try on one side of no change where the scale is near enough
     * linear ({@code sign} 1: rises short of +100%; -1: falls short of -50%): the multiples of the
     * finest step, 1, 2 or 5 times a power of ten from 0.1% to 50%, that lie on the axis with each
     * tick its spacing and its label its gap from the next, when there are two or more; else, where
     * the side is too short in pixels for a grid, 1, 5 and 2 times a power of ten, the nearest
     * first.
     */
    private List<BigDecimal> near(int sign) {
        for (int e = -1; e <= 1; e++) {
            for (int m : new int[] {1, 2, 5}) {
                List<BigDecimal> multiples = multiples(BigDecimal.valueOf(m).scaleByPowerOfTen(e), sign);
                if (spaced(multiples)) {
                    if (multiples.size() >= 2) {
                        return multiples;
                    }
                    break;
                }
            }
        }
        List<BigDecimal> ladder = new ArrayList<>();
        for (int m : new int[] {1, 5, 2}) {
            for (int e = -1; e <= 1; e++) {
                List<BigDecimal> first = multiples(BigDecimal.valueOf(m).scaleByPowerOfTen(e), sign);
                if (!first.isEmpty()) {
                    ladder.add(first.get(0));
                }
            }
        }
        return ladder;
    }

    /**
     * Returns the multiples of {@code step} on one side of no change ({@code sign}), nearest first,
     * that lie on the axis, short of +100% for rises and of -50% for falls.
     */
    private List<BigDecimal> multiples(BigDecimal step, int sign) {
        BigDecimal limit = BigDecimal.valueOf(sign > 0 ? 100 : 50);
        List<BigDecimal> multiples = new ArrayList<>();
        for (BigDecimal pct = step; pct.compareTo(limit) < 0; pct = pct.add(step)) {
            BigDecimal v = sign > 0 ? pct : pct.negate();
            double r = ratio(v.doubleValue());
            if (r < ratioLo || r > ratioHi) {
                break;
            }
            multiples.add(v);
        }
        return multiples;
    }

    /** Returns whether each of {@code pcts}, in order from no change, keeps its spacing and gap from the next. */
    private boolean spaced(List<BigDecimal> pcts) {
        for (int i = 1; i < pcts.size(); i++) {
            Tick a = new Tick(pcts.get(i - 1), label(pcts.get(i - 1)));
            Tick b = new Tick(pcts.get(i), label(pcts.get(i)));
            double apart = Math.abs(at(b) - at(a));
            if (apart < TICK_SPACING || apart < (width(a.label()) + width(b.label())) / 2 + TICK_GAP) {
                return false;
            }
        }
        return true;
    }

    /**
     * A round change past the near part of the axis.
     *
     * @param pct the change, in percent
     * @param rank 0 for 1 times a power of ten (and -50%, a ratio of ½), 1 for 5 times, 2 for 2 times
     */
    private record Candidate(BigDecimal pct, int rank) {}

    /**
     * Returns the round changes on the axis from +100% up, 1, 5 and 2 times a power of ten, and
     * from -50% down, whose ratio is so (-50%, -80%, -90%, -95%, ...), in the order they are
     * tried: by rank, then the nearest to no change first, a rise before a fall as near.
     */
    private List<Candidate> far() {
        record Far(Candidate candidate, double distance) {}
        List<Far> all = new ArrayList<>();
        int[] mantissas = {1, 5, 2};
        for (int rank = 0; rank < mantissas.length; rank++) {
            BigDecimal m = BigDecimal.valueOf(mantissas[rank]);
            for (int k = 2; k <= MOST_EXPONENT; k++) {
                BigDecimal pct = m.scaleByPowerOfTen(k);
                double r = ratio(pct.doubleValue());
                if (r > ratioHi) {
                    break;
                }
                all.add(new Far(new Candidate(pct, rank), StrictMath.log(r)));
            }
            for (int n = 1; n <= MOST_EXPONENT; n++) {
                BigDecimal r = m.scaleByPowerOfTen(-n);
                if (r.doubleValue() < ratioLo) {
                    break;
                }
                if (r.compareTo(HALF) <= 0) {
                    all.add(new Far(
                            new Candidate(
                                    r.subtract(BigDecimal.ONE).movePointRight(2), r.compareTo(HALF) == 0 ? 0 : rank),
                            -StrictMath.log(r.doubleValue())));
                }
            }
        }
        all.sort(Comparator.comparingInt((Far f) -> f.candidate().rank())
                .thenComparingDouble(Far::distance)
                .thenComparing(f -> f.candidate().pct(), Comparator.reverseOrder()));
        return all.stream().map(Far::candidate).toList();
    }
}
