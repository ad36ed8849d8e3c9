package org.perfab.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.perfab.model.CellId;
import org.perfab.model.Measurement;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.stats.Comparison;
import org.perfab.stats.Summary;

/**
 * Draws one cell's trials as an SVG: every counted trial of both sides in the order they ran, so a
 * drift of the machine or an outlier shows, each side's mean as a line and its 95% interval as a
 * band. Builds are told apart by the marker's shape.
 */
final class Plot {
    static final int WIDTH = 640;
    static final int HEIGHT = 180;
    private static final int LEFT = 70;
    private static final int RIGHT = 12;
    private static final int TOP = 12;
    private static final int BOTTOM = 26;
    static final String BASE_COLOUR = "#4a72b0";
    static final String HEAD_COLOUR = "#d9822b";

    private Plot() {
    }

    /** A point: the trial's position in the run, its side, build and value. */
    record Point(int order, Side side, int build, double value) {
    }

    /** Returns the SVG of {@code points} with the means and intervals of {@code c}. */
    static String svg(List<Point> points, Comparison c, String unit, String title) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        int maxOrder = 1;
        for (Point p : points) {
            lo = Math.min(lo, p.value());
            hi = Math.max(hi, p.value());
            maxOrder = Math.max(maxOrder, p.order());
        }
        for (Summary s : List.of(c.base(), c.head())) {
            double[] band = band(s);
            if (band != null) {
                lo = Math.min(lo, band[0]);
                hi = Math.max(hi, band[1]);
            }
        }
        if (!(hi > lo)) {
            double pad = Math.abs(lo) * 0.05 + 1e-9;
            lo -= pad;
            hi += pad;
        }
        double pad = (hi - lo) * 0.08;
        lo -= pad;
        hi += pad;
        Scale y = new Scale(lo, hi, HEIGHT - BOTTOM, TOP);
        Scale x = new Scale(0, maxOrder, LEFT + 8, WIDTH - RIGHT - 8);
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg class=\"plot\" role=\"img\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\">",
                WIDTH, HEIGHT, WIDTH, HEIGHT));
        s.append("<title>").append(title).append("</title>");
        s.append(String.format(Locale.ROOT, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>",
                LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM));
        for (int i = 0; i <= 3; i++) {
            double v = lo + (hi - lo) * i / 3;
            s.append(String.format(Locale.ROOT, "<text class=\"axis\" x=\"%d\" y=\"%.1f\">%s</text>",
                    LEFT - 6, y.at(v) + 4, Numbers.value(v)));
        }
        s.append(String.format(Locale.ROOT, "<text class=\"axis unit\" x=\"%d\" y=\"%d\">%s · trial order →</text>",
                LEFT, HEIGHT - 8, unit));
        band(s, c.base(), y, BASE_COLOUR);
        band(s, c.head(), y, HEAD_COLOUR);
        for (Point p : points) {
            String colour = p.side() == Side.BASE ? BASE_COLOUR : HEAD_COLOUR;
            double px = x.at(p.order());
            double py = y.at(p.value());
            String label = String.format(Locale.ROOT, "<title>%s trial, build %d: %s</title>", p.side().id(), p.build(),
                    Numbers.value(p.value()));
            switch (p.build() % 3) {
                case 0 -> s.append(String.format(Locale.ROOT,
                        "<circle class=\"pt %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">%s</circle>",
                        p.side().id(), px, py, colour, label));
                case 1 -> s.append(String.format(Locale.ROOT,
                        "<rect class=\"pt %s\" x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" fill=\"%s\">%s</rect>",
                        p.side().id(), px - 3.5, py - 3.5, colour, label));
                default -> s.append(String.format(Locale.ROOT,
                        "<path class=\"pt %s\" d=\"M%.1f %.1fl4 7h-8z\" fill=\"%s\">%s</path>",
                        p.side().id(), px, py - 4.5, colour, label));
            }
        }
        s.append("</svg>");
        return s.toString();
    }

    private static void band(StringBuilder s, Summary summary, Scale y, String colour) {
        double[] band = band(summary);
        if (Double.isNaN(summary.mean())) {
            return;
        }
        if (band != null) {
            s.append(String.format(Locale.ROOT,
                    "<rect class=\"ci\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.15\"/>",
                    LEFT, y.at(band[1]), WIDTH - LEFT - RIGHT, Math.max(0.5, y.at(band[0]) - y.at(band[1])), colour));
        }
        s.append(String.format(Locale.ROOT,
                "<line class=\"mean\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"5 3\"/>",
                LEFT, WIDTH - RIGHT, y.at(summary.mean()), y.at(summary.mean()), colour));
    }

    /** Returns the 95% interval of a side's mean, or null when it has fewer than two values. */
    static double[] band(Summary s) {
        if (s.n() < 2 || Double.isNaN(s.stddev())) {
            return null;
        }
        double half = s.meanHalfWidth95();
        return new double[] {s.mean() - half, s.mean() + half};
    }

    private record Scale(double from, double to, double pixelFrom, double pixelTo) {
        double at(double v) {
            return pixelFrom + (v - from) / (to - from) * (pixelTo - pixelFrom);
        }
    }

    /**
     * Returns the points of every cell of {@code run}, by cell: each counted trial's value, in the
     * order the trials ran. One pass over the trials, whatever the number of cells.
     */
    static Map<CellId, List<Point>> points(RunResults run) {
        Map<CellId, List<Point>> points = new HashMap<>();
        int order = 0;
        for (RunResults.TrialRecord t : run.trials()) {
            if (t.warmup()) {
                continue;
            }
            order++;
            for (Measurement m : t.measurements()) {
                points.computeIfAbsent(m.cell().id(), k -> new ArrayList<>())
                        .add(new Point(order, t.side(), t.build(), m.value()));
            }
        }
        return points;
    }
}
