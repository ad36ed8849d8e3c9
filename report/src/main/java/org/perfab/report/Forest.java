package org.perfab.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.perfab.model.Cell;
import org.perfab.model.CellComparison;
import org.perfab.stats.Comparison;
import org.perfab.stats.Thresholds;

/**
 * Draws every cell's change as one SVG, a forest plot: a row per cell with a point at its change
 * (head against baseline, in percent of the baseline mean, the figure the tables show) and a line
 * across its 95% interval, over a vertical line at 0, the band of the minimum effect and the lines
 * of the inconclusive threshold, both from the run's thresholds. Rows come regressions first, then
 * inconclusive, improvements, unchanged, profiles and cells without data; within each, the largest
 * change first. Colours come from the page's style, by the verdict's class.
 *
 * <p>The axis reaches past the inconclusive line on both sides and out to every change and end of
 * an interval within {@link #cap}; one beyond the cap does not stretch it (one absurd cell would
 * squeeze every other into a few pixels). A change past the axis is drawn at its end as an arrow
 * with its figure beside, and an interval past it ends in a chevron. A cell without an interval
 * (a side missing or with one trial, a baseline too noisy to bound the ratio) keeps its row with
 * what it has and a note saying why.
 *
 * <p>The SVG states its own scale for a reader that checks it: {@code data-lo} and {@code data-hi}
 * (percent) are drawn at pixels {@code data-x-lo} and {@code data-x-hi}; each row is a
 * {@code g.mark} with {@code data-row} (its index in the table) and {@code data-verdict}.
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
    /** About how wide a character of a note is, in pixels: a note is cut to the room it has. */
    private static final double NOTE_CHAR = 5.8;
    /** How many ticks the axis has at most. */
    private static final int TICKS = 11;

    private Forest() {
    }

    /**
     * Returns the largest change, in percent either way, that stretches the axis: 100% or four
     * times the inconclusive threshold, whichever is more.
     */
    static double cap(Thresholds t) {
        return Math.max(100, 4 * t.inconclusive());
    }

    /**
     * The order of the plot's rows: by verdict (regressions first, as the table), then by the size
     * of the change, largest first, a change that is not a number last, then by cell.
     */
    static final Comparator<CellComparison> ORDER = Comparator
            .comparing((CellComparison r) -> r.comparison().verdict())
            .thenComparingDouble(r -> Double.isNaN(r.comparison().pctChange()) ? 1
                    : -Math.abs(r.comparison().pctChange()))
            .thenComparing(CellComparison::cell, Cell.ORDER);

    /** Returns the axis of {@code rows}' changes under {@code t}, in percent: see the class's comment. */
    static Axis axis(List<CellComparison> rows, Thresholds t) {
        double reach = Math.max(1, Math.max(t.minEffect(), t.inconclusive()) * 1.25);
        double cap = cap(t);
        double lo = -reach;
        double hi = reach;
        for (CellComparison r : rows) {
            Comparison c = r.comparison();
            for (double v : new double[] {c.pctChange(), c.ciLow(), c.ciHigh()}) {
                if (Math.abs(v) <= cap) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        return Axis.covering(lo, hi, TICKS);
    }

    /**
     * Returns the SVG of {@code rows} (a table's rows, in its order: row {@code i} links to
     * {@code #cell-i} when {@code links}) under the thresholds {@code t}.
     */
    static String svg(List<CellComparison> rows, Thresholds t, boolean links) {
        Axis axis = axis(rows, t);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparing(rows::get, ORDER));
        int height = TOP + rows.size() * ROW + BOTTOM;
        int bottom = TOP + rows.size() * ROW;
        StringBuilder s = new StringBuilder(512 + rows.size() * 480);
        s.append(f("<svg class=\"forest\" role=\"img\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\""
                + " data-lo=\"%s\" data-hi=\"%s\" data-x-lo=\"%d\" data-x-hi=\"%d\" data-min-effect=\"%s\""
                + " data-inconclusive=\"%s\">", WIDTH, height, WIDTH, height, axis.label(axis.first()),
                axis.label(axis.last()), LEFT, RIGHT, Double.toString(t.minEffect()),
                Double.toString(t.inconclusive())));
        s.append("<title>The change of every cell, head against baseline, with its 95% interval, against the ")
                .append(Numbers.percent(t.minEffect())).append(" minimum effect and the ")
                .append(Numbers.percent(t.inconclusive())).append(" inconclusive line</title>");
        // Behind the rows: the band of the minimum effect, the grid, the thresholds and 0.
        s.append(f("<rect class=\"bar\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>within ±%s: never"
                + " flagged</title></rect>", x(axis, -t.minEffect()), TOP,
                x(axis, t.minEffect()) - x(axis, -t.minEffect()), bottom - TOP, Numbers.percent(t.minEffect())));
        for (long k = axis.first(); k <= axis.last(); k++) {
            double px = x(axis, axis.value(k));
            String label = tick(axis, k);
            s.append(f("<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>", px, px, TOP - 4,
                    bottom + 4));
            s.append(f("<text class=\"tick\" x=\"%.1f\" y=\"%d\">%s</text>", px, TOP - 8, label));
            s.append(f("<text class=\"tick\" x=\"%.1f\" y=\"%d\">%s</text>", px, bottom + 16, label));
        }
        threshold(s, axis, "min-effect", t.minEffect(), bottom,
                "the minimum effect: a smaller change is never flagged");
        threshold(s, axis, "inconclusive", t.inconclusive(), bottom,
                "past it, a move for the worse the test could not confirm is inconclusive");
        s.append(f("<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>", x(axis, 0), x(axis, 0),
                TOP - 4, bottom + 4));
        s.append(f("<text class=\"axis-title\" x=\"%d\" y=\"%d\">change of the mean, head against baseline</text>",
                (LEFT + RIGHT) / 2, 13));
        s.append(f("<text class=\"side low\" x=\"%d\" y=\"%d\">← head lower</text>", LEFT, bottom + 34));
        s.append(f("<text class=\"side high\" x=\"%d\" y=\"%d\">head higher →</text>", RIGHT, bottom + 34));
        int line = 0;
        for (int i : order) {
            row(s, rows.get(i), i, TOP + line++ * ROW, axis, links);
        }
        s.append("</svg>");
        return s.toString();
    }

    private static void threshold(StringBuilder s, Axis axis, String kind, double pct, int bottom, String meaning) {
        for (double v : new double[] {-pct, pct}) {
            double px = x(axis, v);
            s.append(f("<line class=\"threshold %s\" data-pct=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\">"
                    + "<title>%s: %s</title></line>", kind, Double.toString(v), px, px, TOP - 4, bottom + 4,
                    Numbers.signedPercent(v), meaning));
        }
    }

    private static void row(StringBuilder s, CellComparison r, int index, int top, Axis axis, boolean links) {
        Comparison c = r.comparison();
        String verdict = c.verdict().id();
        double y = top + ROW / 2.0;
        double pct = c.pctChange();
        boolean interval = !Double.isNaN(c.ciLow()) && !Double.isNaN(c.ciHigh());
        String figure = Numbers.signedPercent(pct) + (interval ? " " + Numbers.interval(c.ciLow(), c.ciHigh()) : "");
        String clipped = Double.isNaN(pct) ? "" : pct > axis.hi() ? "high" : pct < axis.lo() ? "low" : "";
        if (links) {
            s.append("<a href=\"#cell-").append(index).append("\">");
        }
        s.append(f("<g class=\"mark %s\" data-row=\"%d\" data-verdict=\"%s\"%s>", verdict, index, verdict,
                clipped.isEmpty() ? "" : " data-clipped=\"" + clipped + "\""));
        List<String> notes = Notes.of(c);
        String note = notes.isEmpty() ? "no interval" : String.join("; ", notes);
        boolean noted = Double.isNaN(pct) || !interval;
        s.append("<title>").append(HtmlRenderer.name(r.cell().name())).append(" · ")
                .append(HtmlRenderer.name(r.cell().metric())).append(": ")
                .append(HtmlRenderer.html((Double.isNaN(pct) ? "no change" : figure) + ", "
                        + TextRenderer.label(c.verdict()) + (noted ? "; " + note : ""))).append("</title>");
        s.append(f("<rect class=\"stripe\" x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\"/>", top, WIDTH, ROW));
        s.append(f("<text class=\"name\" x=\"%d\" y=\"%.1f\">%s</text>", LEFT - 10, y + 4,
                Untrusted.html(Untrusted.spaces(r.cell().name()) + " · " + Untrusted.spaces(r.cell().metric()), LABEL)));
        double lo = x(axis, axis.lo());
        double hi = x(axis, axis.hi());
        if (interval) {
            double x1 = Math.max(lo, Math.min(hi, x(axis, c.ciLow())));
            double x2 = Math.max(lo, Math.min(hi, x(axis, c.ciHigh())));
            s.append(f("<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", x1, x2, y, y));
            if (c.ciLow() < axis.lo() && !clipped.equals("low")) {
                s.append(f("<path class=\"ci-arrow\" d=\"M%.1f %.1fl-5 -4l5 -4\"/>", lo + 5, y + 4));
            }
            if (c.ciHigh() > axis.hi() && !clipped.equals("high")) {
                s.append(f("<path class=\"ci-arrow\" d=\"M%.1f %.1fl5 -4l-5 -4\"/>", hi - 5, y + 4));
            }
        }
        if (Double.isNaN(pct)) {
            s.append(f("<circle class=\"pt none\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>", lo + 8, y));
            s.append(f("<text class=\"note\" x=\"%.1f\" y=\"%.1f\">%s</text>", lo + 18, y + 4,
                    cut(note, hi - lo - 18)));
        } else if (clipped.equals("high")) {
            s.append(f("<path class=\"pt clipped\" d=\"M%.1f %.1fl-10 -6v12z\"/>", hi, y));
            s.append(f("<text class=\"clip-label\" x=\"%.1f\" y=\"%.1f\">%s off the axis</text>", hi - 14, y + 4,
                    Numbers.signedPercent(pct)));
        } else if (clipped.equals("low")) {
            s.append(f("<path class=\"pt clipped\" d=\"M%.1f %.1fl10 -6v12z\"/>", lo, y));
            s.append(f("<text class=\"clip-label low\" x=\"%.1f\" y=\"%.1f\">%s off the axis</text>", lo + 14, y + 4,
                    Numbers.signedPercent(pct)));
        } else {
            double px = x(axis, pct);
            s.append(f("<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>", px, y));
            if (!interval) {
                boolean right = px < (lo + hi) / 2;
                s.append(f("<text class=\"note%s\" x=\"%.1f\" y=\"%.1f\">%s</text>", right ? "" : " low",
                        right ? px + 10 : px - 10, y + 4,
                        cut("no interval: " + note, (right ? hi - px : px - lo) - 10)));
            }
        }
        s.append(f("<text class=\"figure\" x=\"%d\" y=\"%.1f\">%s</text>", FIGURES, y + 4,
                Double.isNaN(pct) ? Numbers.UNDEFINED : figure));
        s.append("</g>");
        if (links) {
            s.append("</a>");
        }
    }

    /** Returns {@code note} escaped, cut with an ellipsis to about {@code pixels} wide. */
    private static String cut(String note, double pixels) {
        int most = Math.max(8, (int) (pixels / NOTE_CHAR));
        return HtmlRenderer.html(note.length() <= most ? note : note.substring(0, most - 1) + "…");
    }

    /** Returns tick {@code k} as a signed percentage: {@code -10%}, {@code 0%}, {@code +2.5%}. */
    private static String tick(Axis axis, long k) {
        String label = axis.label(k);
        return (k > 0 ? "+" : "") + (k == 0 ? "0" : label) + "%";
    }

    private static double x(Axis axis, double pct) {
        return axis.at(pct, LEFT, RIGHT);
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
