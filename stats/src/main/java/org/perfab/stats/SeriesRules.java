package org.perfab.stats;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * The rules that find a movement in one key's nightly series of ratios: a step past the key's own
 * noise, or a drift over days that no single night shows.
 *
 * <p>A ratio against a baseline measured in the same run is comparable across nights on different
 * machines; an absolute time is not. The noise of such ratios on hosted runners is heavy and
 * uneven (a reading's deviation from its key's previous five: 1% at the median, 14% at the 90th
 * percentile, 93% at the 99th), so a flat threshold either drowns the reader or misses a slow
 * drift. A reading is compared only when its key has {@code minEarlier} earlier readings, and then:
 *
 * <ul>
 *   <li>Step: its ratio differs from the median of the key's previous {@code window} readings by
 *       more than {@code stepFloor} percent, or by more than {@code noiseTimes} times the key's
 *       noise, whichever is larger. The noise is the median of the earlier readings' relative
 *       deviations from the medians of the (up to {@code window}) readings before each of them.
 *   <li>Drift: the median of the key's last {@code driftRecent} readings, this one included,
 *       differs by more than {@code drift} percent from the median of the last {@code window}
 *       readings at least {@code driftDays} days older than this one.
 * </ul>
 *
 * <p>Readings are compared only with readings of the same base: a reading whose base differs from
 * the key's previous known base starts a new segment (see {@link #judgeAll}). "More than" is exact:
 * a change of exactly the limit (1.00 to 1.30 against 30%) is not past it, decided in exact decimal
 * arithmetic near the boundary.
 */
public final class SeriesRules {
    private SeriesRules() {}

    /**
     * The settings of the rules. Percentages in percent.
     *
     * @param stepFloor the least change of a step
     * @param noiseTimes how many times its key's noise a step must also exceed; 0 for a flat step
     * @param drift the least change of a drift; NaN for no drift rule
     * @param window how many earlier readings make the reference of a step, and of a drift
     * @param driftRecent how many readings, this one included, make the recent side of a drift
     * @param driftDays how many days older than this one a drift's reference readings must be
     * @param minEarlier how many earlier readings a key needs before it is compared
     */
    public record Options(
            double stepFloor,
            double noiseTimes,
            double drift,
            int window,
            int driftRecent,
            int driftDays,
            int minEarlier) {
        /** The decided rules: a step past max(30%, 4 x noise), or a drift past 20% over ten days. */
        public static final Options DEFAULT = new Options(30, 4, 20, 5, 3, 10, 3);

        public Options {
            if (!(stepFloor >= 0) || Double.isInfinite(stepFloor)) {
                throw new IllegalArgumentException("step must be a percentage >= 0, got " + stepFloor);
            }
            if (!(noiseTimes >= 0) || Double.isInfinite(noiseTimes)) {
                throw new IllegalArgumentException("noise must be a factor >= 0, got " + noiseTimes);
            }
            if (!Double.isNaN(drift) && !(drift >= 0 && drift < Double.POSITIVE_INFINITY)) {
                throw new IllegalArgumentException("drift must be a percentage >= 0 or off, got " + drift);
            }
            if (window < 1 || window > 1000 || driftRecent < 1 || driftRecent > 1000) {
                throw new IllegalArgumentException("window and recent must be from 1 to 1000");
            }
            if (driftDays < 0 || driftDays > 36500) {
                throw new IllegalArgumentException("days must be from 0 to 36500, got " + driftDays);
            }
            if (minEarlier < 1 || minEarlier > 1000) {
                throw new IllegalArgumentException("min must be from 1 to 1000, got " + minEarlier);
            }
        }

        /**
         * Returns the options {@code spec} names over the defaults: {@code NAME=VALUE} pairs
         * between commas, of {@code step} (percent), {@code noise} (a factor; 0 for a flat step),
         * {@code drift} (percent, or {@code off}), {@code window}, {@code recent}, {@code days}
         * and {@code min}. A percent sign after a percentage is allowed.
         *
         * @throws IllegalArgumentException naming the pair that is wrong
         */
        public static Options parse(String spec) {
            double step = DEFAULT.stepFloor;
            double noise = DEFAULT.noiseTimes;
            double drift = DEFAULT.drift;
            int window = DEFAULT.window;
            int recent = DEFAULT.driftRecent;
            int days = DEFAULT.driftDays;
            int min = DEFAULT.minEarlier;
            for (String pair : spec.split(",", -1)) {
                String[] kv = pair.split("=", 2);
                if (kv.length != 2) {
                    throw new IllegalArgumentException("'" + pair + "' is not NAME=VALUE");
                }
                String name = kv[0].trim();
                String value = kv[1].trim();
                switch (name) {
                    case "step" -> step = percent(name, value);
                    case "noise" -> noise = number(name, value);
                    case "drift" -> drift = value.equals("off") ? Double.NaN : percent(name, value);
                    case "window" -> window = whole(name, value);
                    case "recent" -> recent = whole(name, value);
                    case "days" -> days = whole(name, value);
                    case "min" -> min = whole(name, value);
                    default ->
                        throw new IllegalArgumentException(
                                "'" + name + "' is not one of step, noise, drift, window, recent, days, min");
                }
            }
            return new Options(step, noise, drift, window, recent, days, min);
        }

        private static double percent(String name, String value) {
            return number(name, value.endsWith("%") ? value.substring(0, value.length() - 1) : value);
        }

        private static double number(String name, String value) {
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + ": '" + value + "' is not a number");
            }
        }

        private static int whole(String name, String value) {
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + ": '" + value + "' is not a whole number");
            }
        }

        /** Returns the rules in words: {@code step past max(30%, 4 x noise), or drift past 20% over 10 days}. */
        public String describe() {
            String step = noiseTimes == 0
                    ? "step past a flat " + pct(stepFloor)
                    : "step past max(" + pct(stepFloor) + ", " + num(noiseTimes) + " \u00d7 noise)";
            return Double.isNaN(drift) ? step : step + ", or drift past " + pct(drift) + " over " + driftDays + " days";
        }

        private static String pct(double v) {
            return num(v) + "%";
        }

        private static String num(double v) {
            return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
        }
    }

    /**
     * One reading of a key: the date of its run, its ratio, and the base the ratio was measured
     * against.
     *
     * @param date the day of its run
     * @param ratio the ratio
     * @param base what the ratio is relative to (the base commit of an A/B); empty when unknown, which
     *     never starts a new segment
     */
    public record Point(LocalDate date, double ratio, String base) {
        public Point {
            Objects.requireNonNull(date, "date");
            Objects.requireNonNull(base, "base");
        }

        /** A reading whose base is unknown. */
        public Point(LocalDate date, double ratio) {
            this(date, ratio, "");
        }
    }

    /** Which rule found a movement. */
    public enum Rule {
        STEP("step"),
        DRIFT("drift");

        private final String id;

        Rule(String id) {
            this.id = id;
        }

        /** The rule's name in files and reports. */
        public String id() {
            return id;
        }
    }

    /**
     * A movement of one reading.
     *
     * @param rule the rule that found it (a step when both do)
     * @param ratio the reading's ratio for a step; for a drift, the median of the recent readings
     * @param reference the median it was compared with
     * @param change {@code ratio / reference - 1}, in percent
     * @param limit how far it had to move, in percent
     * @param references the positions, in the key's history, of the readings the reference is the
     *     median of
     */
    public record Move(
            Rule rule, double ratio, double reference, double change, double limit, List<Integer> references) {
        public Move {
            references = List.copyOf(references);
        }
    }

    /**
     * What the rules find in one reading of a key's history.
     *
     * @param move the movement; empty when neither rule fires or the reading is not compared
     * @param isNew whether the movement is new: there is one and the key's previous reading was not
     *     a movement
     * @param compared whether the reading had {@code minEarlier} earlier readings in its segment
     * @param rebasedFrom when the reading starts a new segment, the base before it (see
     *     {@link #judgeAll}); empty otherwise
     */
    public record Judgement(Optional<Move> move, boolean isNew, boolean compared, Optional<String> rebasedFrom) {
        public Judgement {
            Objects.requireNonNull(move, "move");
            Objects.requireNonNull(rebasedFrom, "rebasedFrom");
        }
    }

    /**
     * Returns the movement of reading {@code i} of a key's {@code history} (its readings in run
     * order, this one and those before it); empty when the key has too few earlier readings in the
     * reading's segment or neither rule fires. The same as {@link #judgeAll}'s for {@code i}.
     */
    public static Optional<Move> judge(List<Point> history, int i, Options o) {
        return judgeAll(history.subList(0, i + 1), o).get(i).move();
    }

    /**
     * Returns what the rules find in every reading of a key's {@code history} (its readings in run
     * order), in the same order: the movement and whether it is new, whether the reading was
     * compared, and whether it starts a new segment.
     *
     * <p>A reading starts a new segment, a <em>re-basing</em>, when its base is known and differs
     * from the latest known base before it: a ratio against another base is another quantity, so
     * the rules never compare across a re-basing. The reference medians, the drift's older readings
     * and the noise take only readings of the reading's own segment, and a key is compared again
     * once it has {@code minEarlier} readings on the new base. A reading of unknown base (empty)
     * belongs to the segment it falls in.
     *
     * <p>Linear in the readings, times the window and the logarithm of a segment's length: the noise
     * is kept as a running median of the segment's deviations rather than recomputed per reading.
     */
    public static List<Judgement> judgeAll(List<Point> history, Options o) {
        List<Judgement> all = new ArrayList<>(history.size());
        int[] starts = segments(history);
        RunningMedian deviations = new RunningMedian();
        boolean previousMoved = false;
        for (int i = 0; i < history.size(); i++) {
            int start = starts[i];
            Optional<String> rebasedFrom = Optional.empty();
            if (start == i && i > 0) {
                rebasedFrom = Optional.of(previousBase(history, i));
                deviations = new RunningMedian();
            }
            if (i - 1 > start) {
                deviations.add(deviation(history, start, i - 1, o.window()));
            }
            boolean compared = i - start >= o.minEarlier();
            Optional<Move> move = compared ? move(history, start, i, deviations.median(), o) : Optional.empty();
            all.add(new Judgement(move, move.isPresent() && !previousMoved, compared, rebasedFrom));
            previousMoved = move.isPresent();
        }
        return all;
    }

    /**
     * Returns the noise of a key before reading {@code i}, as a fraction: the median, over the
     * earlier readings {@code j} of reading {@code i}'s segment (see {@link #judgeAll}) from its
     * second on, of {@code |ratio_j / m_j - 1|}, with {@code m_j} the median of the (up to
     * {@code window}) readings of the segment before {@code j}. {@code i} may be the history's
     * size: the noise a next reading of the last reading's base would be judged with. 0 with fewer
     * than two earlier readings in the segment.
     */
    public static double noise(List<Point> history, int i, int window) {
        if (i < 2) {
            return 0;
        }
        int start = segments(history)[Math.min(i, history.size() - 1)];
        RunningMedian deviations = new RunningMedian();
        for (int j = start + 1; j < i; j++) {
            deviations.add(deviation(history, start, j, window));
        }
        return deviations.median();
    }

    /**
     * Returns the relative deviation of each reading of a key's {@code history} from the median of
     * the (up to {@code window}) readings of its segment before it (see {@link #judgeAll}), as
     * fractions, in order: the figures the step rule's noise is the median of. A segment's first
     * reading has none, so a re-basing is never counted as noise; empty for fewer than two
     * readings.
     *
     * @throws IllegalArgumentException when {@code window} is below 1
     */
    public static double[] deviations(List<Point> history, int window) {
        if (window < 1) {
            throw new IllegalArgumentException("a window is at least 1 reading, got " + window);
        }
        int[] starts = segments(history);
        double[] out = new double[history.size()];
        int n = 0;
        for (int j = 0; j < history.size(); j++) {
            if (j > starts[j]) {
                out[n++] = deviation(history, starts[j], j, window);
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * Returns where each reading's segment starts: the position of the latest re-basing at or
     * before it, else 0. A reading re-bases its key when its base is known and differs from the
     * latest known base before it.
     */
    private static int[] segments(List<Point> history) {
        int[] starts = new int[history.size()];
        int start = 0;
        String known = "";
        for (int j = 0; j < history.size(); j++) {
            String base = history.get(j).base();
            if (!base.isEmpty()) {
                start = !known.isEmpty() && !known.equals(base) ? j : start;
                known = base;
            }
            starts[j] = start;
        }
        return starts;
    }

    /** Returns the latest known base before reading {@code i}, which re-bases its key. */
    private static String previousBase(List<Point> history, int i) {
        int j = i - 1;
        while (history.get(j).base().isEmpty()) {
            j--;
        }
        return history.get(j).base();
    }

    /** Returns {@code |ratio_j / m_j - 1|}, {@code m_j} the median of the readings of the segment before {@code j}. */
    private static double deviation(List<Point> history, int start, int j, int window) {
        return Math.abs(history.get(j).ratio() / Sample.median(ratios(history, Math.max(start, j - window), j)) - 1);
    }

    /** Returns the movement of reading {@code i}, whose segment starts at {@code start}, given its key's noise. */
    private static Optional<Move> move(List<Point> history, int start, int i, double noise, Options o) {
        double ratio = history.get(i).ratio();
        int from = Math.max(start, i - o.window());
        double[] before = ratios(history, from, i);
        double reference = Sample.median(before);
        double limit = Math.max(o.stepFloor(), o.noiseTimes() * noise * 100);
        if (beyond(new double[] {ratio}, before, limit)) {
            return Optional.of(
                    new Move(Rule.STEP, ratio, reference, (ratio / reference - 1) * 100, limit, range(from, i)));
        }
        if (Double.isNaN(o.drift())) {
            return Optional.empty();
        }
        LocalDate cutoff = history.get(i).date().minusDays(o.driftDays());
        List<Integer> old = new ArrayList<>();
        for (int j = i - 1; j >= start && old.size() < o.window(); j--) {
            if (!history.get(j).date().isAfter(cutoff)) {
                old.add(0, j);
            }
        }
        if (old.isEmpty()) {
            return Optional.empty();
        }
        double[] recent = ratios(history, Math.max(start, i - o.driftRecent() + 1), i + 1);
        double[] was = old.stream().mapToDouble(k -> history.get(k).ratio()).toArray();
        if (beyond(recent, was, o.drift())) {
            double r = Sample.median(recent);
            double w = Sample.median(was);
            return Optional.of(new Move(Rule.DRIFT, r, w, (r / w - 1) * 100, o.drift(), old));
        }
        return Optional.empty();
    }

    /**
     * Returns whether the median of {@code values} differs from the median of {@code reference} by
     * more than {@code limit} percent, exactly at the boundary: a change of exactly the limit is not
     * past it. Ratios are decimals as written (BenchmarkDotNet's 1.00 and 1.30), and
     * {@code 1.30 / 1.00 - 1} is {@code 0.30000000000000004} in binary floating point; so a change
     * within a relative 1e-9 of the limit, far wider than that rounding, is decided again in exact
     * decimal arithmetic: each ratio and the limit as the shortest decimal that reads back as the
     * same double, the medians exact, and {@code |v - r| > r * limit / 100}.
     */
    private static boolean beyond(double[] values, double[] reference, double limit) {
        double v = Sample.median(values);
        double r = Sample.median(reference);
        double change = Math.abs((v / r - 1) * 100);
        if (Math.abs(change - limit) > 1e-9 * Math.max(1, limit)) {
            return change > limit;
        }
        BigDecimal exactV = decimalMedian(values);
        BigDecimal exactR = decimalMedian(reference);
        return exactV.subtract(exactR)
                        .abs()
                        .compareTo(exactR.multiply(decimal(limit)).movePointLeft(2))
                > 0;
    }

    private static BigDecimal decimalMedian(double[] values) {
        BigDecimal[] s =
                Arrays.stream(values).mapToObj(SeriesRules::decimal).sorted().toArray(BigDecimal[]::new);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : s[n / 2 - 1].add(s[n / 2]).divide(BigDecimal.valueOf(2));
    }

    private static BigDecimal decimal(double v) {
        return new BigDecimal(Double.toString(v));
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> r = new ArrayList<>();
        for (int k = from; k < to; k++) {
            r.add(k);
        }
        return r;
    }

    private static double[] ratios(List<Point> history, int from, int to) {
        double[] r = new double[to - from];
        for (int k = from; k < to; k++) {
            r[k - from] = history.get(k).ratio();
        }
        return r;
    }

    /**
     * The median of a growing set of numbers, in O(log n) an addition: the lower half in a max-heap,
     * the upper half in a min-heap. Its median is {@link Sample#median}'s to the bit (the middle
     * value, or the two middle ones' mean computed the same way); 0 when empty.
     */
    private static final class RunningMedian {
        private final PriorityQueue<Double> lower = new PriorityQueue<>(Comparator.reverseOrder());
        private final PriorityQueue<Double> upper = new PriorityQueue<>();

        void add(double v) {
            if (lower.isEmpty() || v <= lower.peek()) {
                lower.add(v);
            } else {
                upper.add(v);
            }
            if (lower.size() > upper.size() + 1) {
                upper.add(lower.poll());
            } else if (upper.size() > lower.size()) {
                lower.add(upper.poll());
            }
        }

        double median() {
            if (lower.isEmpty()) {
                return 0;
            }
            return lower.size() > upper.size() ? lower.peek() : (lower.peek() + upper.peek()) / 2.0;
        }
    }
}
