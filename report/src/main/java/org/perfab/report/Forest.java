package org.perfab.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import org.perfab.model.Cell;
import org.perfab.model.CellComparison;
import org.perfab.stats.Comparison;
import org.perfab.stats.Thresholds;

/**
 * Draws every cell's change as one SVG, a forest plot: a row per cell with a point at its change
 * (head against baseline, the ratio of the means on a logarithmic axis, ticked in percent of the
 * baseline mean, the figure the tables show; see {@link RatioAxis}) and a line across its 95%
 * interval, over a vertical line at 0, the band of the minimum effect and the lines of the
 * inconclusive threshold, both from the run's thresholds. Rows come regressions first, then
 * inconclusive, improvements, unchanged, profiles and cells without data; within each, the largest
 * change first. Colours come from the page's style, by the verdict's class.
 *
 * <p>The axis reaches past the inconclusive line on both sides and out to every change and every
 * end of an interval, however far: on a log scale +5000% and -99% lie a few hundred pixels from 0,
 * not thousands, so none is cut off, and one absurd cell squeezes the others far less than on a
 * linear axis. Each change is printed beside its mark, past its high end (the axis keeps room
 * there for the widest), never over a mark. What no ratio can place is drawn at the axis's low end, marked: a change of -100% or less
 * (the head's mean is 0 or below) as an arrow there, and an interval reaching -100% or below
 * (a ratio of 0 or below, which Fieller's interval gives when the head's mean is itself not
 * bounded away from 0) as a line run out to that end into a chevron, its other end in place. A
 * cell without an interval (a side missing or with one trial, a baseline too noisy to bound the
 * ratio) keeps its row with what it has and a note saying why.
 *
 * <p>The SVG states its own scale for a reader that checks it: the ratios {@code data-ratio-lo}
 * and {@code data-ratio-hi} are drawn at pixels {@code data-x-lo} and {@code data-x-hi}, on the
 * scale {@code data-scale} ({@code log}: a ratio r at
 * {@code x-lo + ln(r / ratio-lo) / ln(ratio-hi / ratio-lo) * (x-hi - x-lo)}); each row is a
 * {@code g.mark} with {@code data-row} (its index in the table) and {@code data-verdict}, and
 * {@code data-clipped} ({@code low}) when no ratio places its change, {@code data-ci-clipped}
 * ({@code low}) when none places the low end of its interval.
 */
final class Forest {
    static final int WIDTH = 1060;
    /** The right end of the cells' names and the left end of the axis. */
    static final int LEFT = 290;
    /** The right end of the axis. */
    static final int RIGHT = 820;
    /** Where the figures of each row start. */
    private static final int FIGURES = 832;

    private static final int TOP = 40;
    private static final int ROW = 20;
    private static final int BOTTOM = 42;
    /** How many code points of a cell's name and metric a row shows, start and end kept. */
    private static final int LABEL = 38;
    /**
     * About how wide a character of a note is, in pixels, in DejaVu Sans's italic (wider than most
     * fonts a browser picks): a note is cut to the room it has.
     */
    private static final double NOTE_CHAR = 6.4;
    /** The radius of a point, in pixels. */
    private static final double POINT = 4;
    /** How far an arrow at the axis's end reaches into it, in pixels. */
    private static final double ARROW = 10;
    /** The room, in pixels, between a mark and the change printed beside it. */
    private static final double GAP = 6;

    private Forest() {}

    /**
     * The order of the plot's rows: by verdict (regressions first, as the table), then by the size
     * of the change, largest first, a change that is not a number last, then by cell.
     */
    static final Comparator<CellComparison> ORDER = Comparator.comparing(
                    (CellComparison r) -> r.comparison().verdict())
            .thenComparingDouble(r -> Double.isNaN(r.comparison().pctChange())
                    ? 1
                    : -Math.abs(r.comparison().pctChange()))
            .thenComparing(CellComparison::cell, Cell.ORDER);

    /** Returns the axis of {@code rows}' changes under {@code t}: see the class's comment. */
    static RatioAxis axis(List<CellComparison> rows, Thresholds t) {
        // Note: the axis was linear, capped at ±100% so that one absurd cell would not squeeze the
        // rest: a +215% regression became an arrow at the edge with its figure printed over it, the
        // biggest move drawn worst. A broken axis keeps small changes wider, but two scales on one
        // picture make intervals across the break look shorter than they are; a log scale is one
        // scale throughout, and the one on which ×2 and ×½ are the same size of move.

        // Past the inconclusive lines by a quarter, as far either way in ratio, and at least 1%.
        double reach = Math.max(1, Math.max(t.minEffect(), t.inconclusive()) * 1.25) / 100;
        double lo = reach < 1 ? 1 - reach : 1 / (1 + reach);
        double hi = 1 + reach;
        for (double pct : new double[] {-t.minEffect(), -t.inconclusive()}) {
            if (RatioAxis.places(pct)) {
                lo = Math.min(lo, RatioAxis.ratio(pct));
            }
        }
        boolean offLow = false;
        boolean offHigh = false;
        for (CellComparison r : rows) {
            Comparison c = r.comparison();
            for (double pct : new double[] {c.pctChange(), c.ciLow(), c.ciHigh()}) {
                if (RatioAxis.places(pct)) {
                    lo = Math.min(lo, RatioAxis.ratio(pct));
                    hi = Math.max(hi, RatioAxis.ratio(pct));
                } else if (!Double.isNaN(pct)) {
                    offLow |= pct < 0;
                    offHigh |= pct > 0;
                }
            }
        }
        // Room at the low end for the arrows of what no ratio places, when there are any, else for a
        // point; at the high end for the widest change past its mark, so that every one reads there.
        double widest = 0;
        for (CellComparison r : rows) {
            Comparison c = r.comparison();
            if (!Double.isNaN(c.pctChange()) && !Double.isNaN(c.ciLow()) && !Double.isNaN(c.ciHigh())) {
                widest = Math.max(widest, RatioAxis.width(Numbers.signedPercent(c.pctChange())));
            }
        }
        double roomLo = offLow ? ARROW + 2 * POINT : POINT + 1;
        double roomHi = Math.max(offHigh ? ARROW + 2 * POINT : POINT + 1, POINT + GAP + widest);
        return RatioAxis.covering(lo, hi, LEFT, RIGHT, roomLo, roomHi, List.of(t.minEffect(), -t.minEffect()));
    }

    /**
     * Returns the SVG of {@code rows} (a table's rows, in its order: row {@code i} links to
     * {@code #cell-i} when {@code links}) under the thresholds {@code t}.
     */
    static String svg(List<CellComparison> rows, UnaryOperator<String> names, Thresholds t, boolean links) {
        RatioAxis axis = axis(rows, t);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparing(rows::get, ORDER));
        int height = TOP + rows.size() * ROW + BOTTOM;
        int bottom = TOP + rows.size() * ROW;
        StringBuilder s = new StringBuilder(512 + rows.size() * 560);
        s.append(f(
                "<svg class=\"forest\" role=\"img\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\""
                        + " data-scale=\"log\" data-ratio-lo=\"%s\" data-ratio-hi=\"%s\" data-x-lo=\"%d\" data-x-hi=\"%d\""
                        + " data-min-effect=\"%s\" data-inconclusive=\"%s\">",
                WIDTH,
                height,
                WIDTH,
                height,
                Double.toString(axis.ratioLo()),
                Double.toString(axis.ratioHi()),
                LEFT,
                RIGHT,
                Double.toString(t.minEffect()),
                Double.toString(t.inconclusive())));
        s.append("<title>The change of every cell, head against baseline, with its 95% interval, on a log scale"
                        + " of their ratio, against the ")
                .append(Numbers.percent(t.minEffect()))
                .append(" minimum effect and the ")
                .append(Numbers.percent(t.inconclusive()))
                .append(" inconclusive line</title>");
        // Behind the rows: the band of the minimum effect, the grid, the thresholds and 0.
        double bandLo = RatioAxis.places(-t.minEffect()) ? x(axis, -t.minEffect()) : LEFT;
        s.append(f(
                "<rect class=\"bar\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>within ±%s: never"
                        + " flagged</title></rect>",
                bandLo, TOP, x(axis, t.minEffect()) - bandLo, bottom - TOP, Numbers.percent(t.minEffect())));
        for (RatioAxis.Tick k : axis.ticks()) {
            double px = axis.at(k);
            s.append(f(
                    "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>", px, px, TOP - 4, bottom + 4));
            s.append(f("<text class=\"tick\" x=\"%.1f\" y=\"%d\">%s</text>", px, TOP - 8, k.label()));
            s.append(f("<text class=\"tick\" x=\"%.1f\" y=\"%d\">%s</text>", px, bottom + 16, k.label()));
        }
        threshold(
                s, axis, "min-effect", t.minEffect(), bottom, "the minimum effect: a smaller change is never flagged");
        threshold(
                s,
                axis,
                "inconclusive",
                t.inconclusive(),
                bottom,
                "past it, a move for the worse the test could not confirm is inconclusive");
        s.append(f(
                "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>",
                x(axis, 0), x(axis, 0), TOP - 4, bottom + 4));
        s.append(f(
                "<text class=\"axis-title\" x=\"%d\" y=\"%d\">change of the mean, head against baseline"
                        + " (log scale of their ratio)</text>",
                (LEFT + RIGHT) / 2, 13));
        s.append(f("<text class=\"side low\" x=\"%d\" y=\"%d\">← head lower</text>", LEFT, bottom + 34));
        s.append(f("<text class=\"side high\" x=\"%d\" y=\"%d\">head higher →</text>", RIGHT, bottom + 34));
        int line = 0;
        for (int i : order) {
            row(s, rows.get(i), names.apply(rows.get(i).cell().name()), i, TOP + line++ * ROW, axis, t, links);
        }
        s.append("</svg>");
        return s.toString();
    }

    /** Draws the lines at -pct and +pct, each where a ratio places it. */
    private static void threshold(
            StringBuilder s, RatioAxis axis, String kind, double pct, int bottom, String meaning) {
        for (double v : new double[] {-pct, pct}) {
            if (!RatioAxis.places(v)) {
                continue;
            }
            double px = x(axis, v);
            s.append(f(
                    "<line class=\"threshold %s\" data-pct=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\">"
                            + "<title>%s: %s</title></line>",
                    kind, Double.toString(v), px, px, TOP - 4, bottom + 4, Numbers.signedPercent(v), meaning));
        }
    }

    private static void row(
            StringBuilder s,
            CellComparison r,
            String name,
            int index,
            int top,
            RatioAxis axis,
            Thresholds t,
            boolean links) {
        Comparison c = r.comparison();
        String verdict = c.verdict().id();
        double y = top + ROW / 2.0;
        double pct = c.pctChange();
        boolean interval = !Double.isNaN(c.ciLow()) && !Double.isNaN(c.ciHigh());
        String change = Numbers.signedPercent(pct);
        String figure = change + (interval ? " " + Numbers.interval(c.ciLow(), c.ciHigh()) : "");
        String clipped = Double.isNaN(pct) || RatioAxis.places(pct) ? "" : pct > 0 ? "high" : "low";
        boolean ciClipped = interval && !RatioAxis.places(c.ciLow()) && !clipped.equals("low");
        if (links) {
            s.append("<a href=\"#cell-").append(index).append("\">");
        }
        s.append(f(
                "<g class=\"mark %s\" data-row=\"%d\" data-verdict=\"%s\"%s%s>",
                verdict,
                index,
                verdict,
                clipped.isEmpty() ? "" : " data-clipped=\"" + clipped + "\"",
                ciClipped ? " data-ci-clipped=\"low\"" : ""));
        List<String> notes = Notes.caveats(r, t);
        String note = notes.isEmpty() ? "no interval" : String.join("; ", notes);
        boolean noted = Double.isNaN(pct) || !interval;
        s.append("<title>")
                .append(Untrusted.html(name))
                .append(" · ")
                .append(Untrusted.html(r.cell().metric()))
                .append(": ")
                .append(Untrusted.htmlProse((Double.isNaN(pct) ? "no change" : figure) + ", " + Words.label(c.verdict())
                        + (noted ? "; " + note : "") + offAxis(clipped, ciClipped)))
                .append("</title>");
        s.append(f("<rect class=\"stripe\" x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\"/>", top, WIDTH, ROW));
        s.append(f(
                "<text class=\"name\" x=\"%d\" y=\"%.1f\">%s</text>",
                LEFT - 10,
                y + 4,
                Untrusted.html(
                        Untrusted.spaces(name) + " · "
                                + Untrusted.spaces(r.cell().metric()),
                        LABEL)));
        Layout l = layout(c, axis);
        if (interval) {
            s.append(f("<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", l.x1(), l.x2(), y, y));
            if (ciClipped) {
                s.append(f("<path class=\"ci-arrow\" d=\"M%.1f %.1fl-5 -4l5 -4\"/>", l.x1() + 5, y + 4));
            }
        }
        if (Double.isNaN(pct)) {
            s.append(f(
                    "<circle class=\"pt none\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"/>",
                    LEFT + 8.0, y, Numbers.value(POINT)));
            s.append(f(
                    "<text class=\"note\" x=\"%.1f\" y=\"%.1f\">%s</text>",
                    LEFT + 18.0, y + 4, cut(note, RIGHT - LEFT - 18)));
        } else {
            mark(s, l, y, clipped, change, note);
        }
        s.append(f(
                "<text class=\"figure\" x=\"%d\" y=\"%.1f\">%s</text>",
                FIGURES, y + 4, Double.isNaN(pct) ? Numbers.UNDEFINED : figure));
        s.append("</g>");
        if (links) {
            s.append("</a>");
        }
    }

    /**
     * Returns what a row's title says of a change or interval that runs off the axis ({@code
     * clipped}: "low", "high", or empty when its change is on it); empty when neither does.
     */
    private static String offAxis(String clipped, boolean ciClipped) {
        return clipped.equals("low")
                ? "; -100% or less, where no ratio is: drawn at the axis's end"
                : clipped.equals("high")
                        ? "; drawn at the axis's end"
                        : ciClipped
                                ? "; its interval reaches -100% or less, where no ratio is: it runs to the axis's end"
                                : "";
    }

    /**
     * Draws a row's change at height {@code y}: its point (an arrow at the axis's end where it is
     * {@code clipped}), then {@code change} printed beside it, or, without an interval, a note that
     * starts with it.
     */
    private static void mark(StringBuilder s, Layout l, double y, String clipped, String change, String note) {
        if (clipped.isEmpty()) {
            s.append(f("<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"/>", l.point(), y, Numbers.value(POINT)));
        } else {
            boolean high = clipped.equals("high");
            s.append(f(
                    "<path class=\"pt clipped\" d=\"M%d %.1fl%s%s -6v12z\"/>",
                    high ? RIGHT : LEFT, y, high ? "-" : "", Numbers.value(ARROW)));
        }
        if (l.labelled()) {
            if (!Double.isNaN(l.change())) {
                s.append(f(
                        "<text class=\"change%s\" x=\"%.1f\" y=\"%.1f\">%s</text>",
                        l.before() ? " low" : "", l.change(), y + 4, change));
            }
        } else {
            boolean onRight = l.left() + l.right() < LEFT + RIGHT;
            s.append(f(
                    "<text class=\"note%s\" x=\"%.1f\" y=\"%.1f\">%s</text>",
                    onRight ? "" : " low",
                    onRight ? l.right() + GAP : l.left() - GAP,
                    y + 4,
                    cut(change + " · no interval: " + note, (onRight ? RIGHT - l.right() : l.left() - LEFT) - GAP)));
        }
    }

    /**
     * Where a row's marks go, in pixels.
     *
     * @param x1 the low end of its interval; NaN without one
     * @param x2 its high end; NaN without one
     * @param point its change; NaN without one, or where no ratio places it (an arrow at the end)
     * @param left the left end of all it draws on the axis
     * @param right the right end of it
     * @param labelled whether its change is printed beside it: it has a change and an interval (a
     *     row without an interval has a note saying so, which starts with its change)
     * @param change where the change printed beside it starts ({@code before}: ends); NaN when it
     *     fits on neither side, and the figures beside the plot say it
     * @param before whether the change is printed before the mark, not past it
     */
    private record Layout(
            double x1,
            double x2,
            double point,
            double left,
            double right,
            boolean labelled,
            double change,
            boolean before) {}

    /**
     * Returns where the marks of {@code c} go on {@code axis}: the change is printed past the
     * mark's right end, where the axis keeps room for it, else (a change drawn at the axis's high
     * end) before its left end.
     */
    private static Layout layout(Comparison c, RatioAxis axis) {
        double pct = c.pctChange();
        boolean interval = !Double.isNaN(c.ciLow()) && !Double.isNaN(c.ciHigh());
        double x1 = Double.NaN;
        double x2 = Double.NaN;
        double left = RIGHT;
        double right = LEFT;
        if (interval) {
            x1 = place(axis, c.ciLow());
            x2 = Math.max(x1, place(axis, c.ciHigh()));
            left = x1;
            right = x2;
        }
        double point = Double.NaN;
        if (RatioAxis.places(pct)) {
            point = axis.at(pct);
            left = Math.min(left, point - POINT);
            right = Math.max(right, point + POINT);
        } else if (!Double.isNaN(pct)) {
            left = Math.min(left, pct > 0 ? RIGHT - ARROW : LEFT);
            right = Math.max(right, pct > 0 ? RIGHT : LEFT + ARROW);
        }
        boolean labelled = !Double.isNaN(pct) && interval;
        double change = Double.NaN;
        boolean before = false;
        if (labelled) {
            double width = RatioAxis.width(Numbers.signedPercent(pct));
            if (right + GAP + width <= RIGHT) {
                change = right + GAP;
            } else if (left - GAP - width >= LEFT) {
                change = left - GAP;
                before = true;
            }
        }
        return new Layout(x1, x2, point, left, right, labelled, change, before);
    }

    /** Returns {@code note} escaped, cut with an ellipsis to about {@code pixels} wide. */
    private static String cut(String note, double pixels) {
        int most = Math.max(8, (int) (pixels / NOTE_CHAR));
        return Untrusted.htmlProse(note.length() <= most ? note : note.substring(0, most - 1) + "…");
    }

    /** Returns the pixel of a change that {@link RatioAxis#places} holds for. */
    private static double x(RatioAxis axis, double pct) {
        return axis.at(pct);
    }

    /**
     * Returns the pixel of an end of an interval: where the axis puts it, or the axis's low end
     * for -100% or less, its high end for +infinity.
     */
    private static double place(RatioAxis axis, double pct) {
        return RatioAxis.places(pct) ? axis.at(pct) : pct > 0 ? RIGHT : LEFT;
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
