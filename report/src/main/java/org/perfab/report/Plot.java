package org.perfab.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.perfab.model.CellComparison;
import org.perfab.model.CellId;
import org.perfab.model.Measurement;
import org.perfab.model.Outlier;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.model.Units;
import org.perfab.stats.Comparison;
import org.perfab.stats.Summary;

/**
 * Draws one cell's trials as an SVG: every counted trial of both sides in the order they ran, so a
 * drift of the machine or an outlier shows, each side's mean as a line and its 95% interval as a
 * band (of the trials, outliers set aside, when the medians of several builds decide). Values are
 * in the unit the text table shows them in ({@code 37.4 ms}, not {@code 37423436 ns}), on round
 * ticks. Builds are told apart by the marker's shape ({@link #BUILD_MARKERS}), and a trial set
 * aside as an outlier (see {@link CellComparison#outliers}) is ringed.
 */
final class Plot {
    static final int WIDTH = 640;
    static final int HEIGHT = 190;
    private static final int LEFT = 70;
    private static final int RIGHT = 12;
    private static final int TOP = 12;
    private static final int BOTTOM = 38;
    /** How many ticks each axis has at most. */
    private static final int Y_TICKS = 6;

    private static final int X_TICKS = 10;
    static final String BASE_COLOUR = "#4a72b0";
    static final String HEAD_COLOUR = "#d9822b";
    /** The marker of each build, by its number modulo their count, as the key writes them. */
    static final List<String> BUILD_MARKERS = List.of("●", "■", "▲", "◆", "▼");

    private Plot() {}

    /** A point: the trial's position in the run, its side, build, number on its side and build, and value. */
    record Point(int order, Side side, int build, int trial, double value) {}

    /** Identifies a trial of a cell: its side, build and number, as {@link Outlier} does. */
    private record Trial(Side side, int build, int trial) {}

    /**
     * Returns the SVG of {@code points}, the trials of {@code row}'s cell, with the means and
     * intervals of its trials; {@code title} (escaped) names it.
     */
    static String svg(List<Point> points, CellComparison row, String title) {
        Comparison c = row.trialLevel().orElse(row.comparison());
        Units.Display d =
                Numbers.display(row.cell().unit(), c.base().mean(), c.head().mean());
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        int maxOrder = 1;
        boolean builds = false;
        for (Point p : points) {
            lo = Math.min(lo, p.value() * d.factor());
            hi = Math.max(hi, p.value() * d.factor());
            maxOrder = Math.max(maxOrder, p.order());
            builds |= p.build() > 0;
        }
        for (Summary s : List.of(c.base(), c.head())) {
            double[] band = band(s);
            if (band != null) {
                lo = Math.min(lo, band[0] * d.factor());
                hi = Math.max(hi, band[1] * d.factor());
            }
        }
        if (hi > lo) {
            // A little room around the trials, never below 0 for values that are not.
            double pad = (hi - lo) * 0.04;
            lo = lo >= 0 ? Math.max(0, lo - pad) : lo - pad;
            hi += pad;
        }
        Axis ay = Axis.covering(lo, hi, Y_TICKS);
        Axis ax = Axis.covering(0, maxOrder, Math.min(X_TICKS, maxOrder + 1));
        Scale y = new Scale(ay, HEIGHT - BOTTOM, TOP);
        Scale x = new Scale(ax, LEFT + 8, WIDTH - RIGHT - 8);
        StringBuilder s = new StringBuilder();
        s.append(f(
                "<svg class=\"plot\" role=\"img\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\">",
                WIDTH, HEIGHT, WIDTH, HEIGHT));
        s.append("<title>").append(title).append("</title>");
        axes(s, ay, y, ax, x, d);
        band(s, c.base(), y, d, BASE_COLOUR);
        band(s, c.head(), y, d, HEAD_COLOUR);
        Map<Trial, Outlier> outliers = new HashMap<>();
        for (Outlier o : row.outliers()) {
            outliers.put(new Trial(o.side(), o.build(), o.trial()), o);
        }
        StringBuilder rings = new StringBuilder();
        for (Point p : points) {
            String colour = p.side() == Side.BASE ? BASE_COLOUR : HEAD_COLOUR;
            double px = x.at(p.order());
            double py = y.at(p.value() * d.factor());
            Outlier outlier = outliers.get(new Trial(p.side(), p.build(), p.trial()));
            String label = "<title>" + p.side().id() + (builds ? ", build " + p.build() : "") + ", trial "
                    + (p.trial() + 1) + ": " + Untrusted.htmlProse(Numbers.shown(p.value(), d))
                    + (outlier == null
                            ? ""
                            : "; an outlier, set aside (" + Numbers.signedPercent(outlier.deviation())
                                    + " from its side's median)")
                    + "</title>";
            String data = f(" data-build=\"%d\"%s", p.build(), outlier == null ? "" : " data-outlier=\"true\"");
            marker(s, p, px, py, colour, data, label);
            if (outlier != null) {
                rings.append(f("<circle class=\"outlier\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\"/>", px, py));
            }
        }
        s.append(rings).append("</svg>");
        return s.toString();
    }

    /** Appends the grid, the axes' labels, the frame and the caption of a plot's scales {@code y} and {@code x}. */
    private static void axes(StringBuilder s, Axis ay, Scale y, Axis ax, Scale x, Units.Display d) {
        for (long k = ay.first(); k <= ay.last(); k++) {
            double py = y.at(ay.value(k));
            s.append(f(
                    "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>", LEFT, WIDTH - RIGHT, py, py));
            s.append(f(
                    "<text class=\"axis\" x=\"%d\" y=\"%.1f\">%s</text>",
                    LEFT - 6, py + 4, ay.label(k) + Untrusted.html(d.prefix())));
        }
        for (long k = ax.first(); k <= ax.last(); k++) {
            double v = ax.value(k);
            if (v >= 1) {
                s.append(f(
                        "<text class=\"axis order\" x=\"%.1f\" y=\"%d\">%s</text>",
                        x.at(v), HEIGHT - BOTTOM + 14, ax.label(k)));
            }
        }
        s.append(f(
                "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>",
                LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM));
        s.append(f(
                "<text class=\"axis unit\" x=\"%d\" y=\"%d\">%s · trial, in the order run →</text>",
                LEFT, HEIGHT - 4, Untrusted.html(d.unit())));
    }

    /**
     * Appends the marker of {@code p} at ({@code px}, {@code py}): its build's shape, filled with its
     * side's {@code colour}, with the attributes {@code data} and the title {@code label}.
     */
    private static void marker(
            StringBuilder s, Point p, double px, double py, String colour, String data, String label) {
        switch (p.build() % BUILD_MARKERS.size()) {
            case 0 ->
                s.append(f(
                        "<circle class=\"pt %s\"%s cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">%s</circle>",
                        p.side().id(), data, px, py, colour, label));
            case 1 ->
                s.append(f(
                        "<rect class=\"pt %s\"%s x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\""
                                + " fill=\"%s\">%s</rect>",
                        p.side().id(), data, px - 3.5, py - 3.5, colour, label));
            case 2 ->
                s.append(f(
                        "<path class=\"pt %s\"%s d=\"M%.1f %.1fl4.5 7.5h-9z\" fill=\"%s\">%s</path>",
                        p.side().id(), data, px, py - 4.5, colour, label));
            case 3 ->
                s.append(f(
                        "<path class=\"pt %s\"%s d=\"M%.1f %.1fl4.5 4.5l-4.5 4.5l-4.5 -4.5z\" fill=\"%s\">"
                                + "%s</path>",
                        p.side().id(), data, px, py - 4.5, colour, label));
            default ->
                s.append(f(
                        "<path class=\"pt %s\"%s d=\"M%.1f %.1fl4.5 -7.5h-9z\" fill=\"%s\">%s</path>",
                        p.side().id(), data, px, py + 4.5, colour, label));
        }
    }

    private static void band(StringBuilder s, Summary summary, Scale y, Units.Display d, String colour) {
        if (Double.isNaN(summary.mean())) {
            return;
        }
        double[] band = band(summary);
        if (band != null) {
            double top = y.at(band[1] * d.factor());
            s.append(f(
                    "<rect class=\"ci\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\""
                            + " fill-opacity=\"0.15\"/>",
                    LEFT, top, WIDTH - LEFT - RIGHT, Math.max(0.5, y.at(band[0] * d.factor()) - top), colour));
        }
        double mean = y.at(summary.mean() * d.factor());
        s.append(f(
                "<line class=\"mean\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
                        + " stroke-dasharray=\"5 3\"/>",
                LEFT, WIDTH - RIGHT, mean, mean, colour));
    }

    /** Returns the 95% interval of a side's mean, or null when it has fewer than two values. */
    static double[] band(Summary s) {
        if (s.n() < 2 || Double.isNaN(s.stddev())) {
            return null;
        }
        double half = s.meanHalfWidth95();
        return new double[] {s.mean() - half, s.mean() + half};
    }

    /** An axis drawn from one pixel to another. */
    private record Scale(Axis axis, double pixelFrom, double pixelTo) {
        double at(double v) {
            return axis.at(v, pixelFrom, pixelTo);
        }
    }

    /**
     * Returns the points of every cell of {@code run}, by cell: each counted trial's value, in the
     * order the trials ran (failed trials keep their place and draw nothing). One pass over the
     * trials, whatever the number of cells.
     */
    static Map<CellId, List<Point>> points(RunResults run) {
        Map<CellId, List<Point>> points = new HashMap<>();
        int order = 0;
        for (RunResults.TrialRecord t : run.trials()) {
            if (t.warmup()) {
                continue;
            }
            order++;
            if (t.status() != RunResults.Status.OK) {
                continue;
            }
            for (Measurement m : t.measurements()) {
                points.computeIfAbsent(m.cell().id(), k -> new ArrayList<>())
                        .add(new Point(order, t.side(), m.build(), m.trial(), m.value()));
            }
        }
        return points;
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
