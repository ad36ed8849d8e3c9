package org.perfab.stats;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

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
 */
public final class SeriesRules {
    private SeriesRules() {
    }

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
    public record Options(double stepFloor, double noiseTimes, double drift, int window, int driftRecent,
            int driftDays, int minEarlier) {
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
                    default -> throw new IllegalArgumentException("'" + name + "' is not one of step, noise, drift,"
                            + " window, recent, days, min");
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
            String step = noiseTimes == 0 ? "step past a flat " + pct(stepFloor)
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

    /** One reading of a key: the date of its run, and its ratio. */
    public record Point(LocalDate date, double ratio) {
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
    public record Move(Rule rule, double ratio, double reference, double change, double limit,
            List<Integer> references) {
        public Move {
            references = List.copyOf(references);
        }
    }

    /**
     * Returns the movement of reading {@code i} of a key's {@code history} (its readings in run
     * order, this one and those before it); empty when the key has too few earlier readings or
     * neither rule fires.
     */
    public static Optional<Move> judge(List<Point> history, int i, Options o) {
        if (i < o.minEarlier()) {
            return Optional.empty();
        }
        double ratio = history.get(i).ratio();
        List<Integer> before = range(Math.max(0, i - o.window()), i);
        double reference = ratioMedian(history, before);
        double change = (ratio / reference - 1) * 100;
        double limit = Math.max(o.stepFloor(), o.noiseTimes() * noise(history, i, o.window()) * 100);
        if (Math.abs(change) > limit) {
            return Optional.of(new Move(Rule.STEP, ratio, reference, change, limit, before));
        }
        if (Double.isNaN(o.drift())) {
            return Optional.empty();
        }
        LocalDate cutoff = history.get(i).date().minusDays(o.driftDays());
        List<Integer> old = new ArrayList<>();
        for (int j = i - 1; j >= 0 && old.size() < o.window(); j--) {
            if (!history.get(j).date().isAfter(cutoff)) {
                old.add(0, j);
            }
        }
        if (old.isEmpty()) {
            return Optional.empty();
        }
        double recent = ratioMedian(history, range(Math.max(0, i - o.driftRecent() + 1), i + 1));
        double was = ratioMedian(history, old);
        double drift = (recent / was - 1) * 100;
        if (Math.abs(drift) > o.drift()) {
            return Optional.of(new Move(Rule.DRIFT, recent, was, drift, o.drift(), old));
        }
        return Optional.empty();
    }

    /**
     * Returns the noise of a key before reading {@code i}, as a fraction: the median, over the
     * earlier readings {@code j} from the second on, of {@code |ratio_j / m_j - 1|}, with
     * {@code m_j} the median of the (up to {@code window}) readings before {@code j}. 0 with fewer
     * than two earlier readings.
     */
    public static double noise(List<Point> history, int i, int window) {
        if (i < 2) {
            return 0;
        }
        double[] deviations = new double[i - 1];
        for (int j = 1; j < i; j++) {
            deviations[j - 1] = Math.abs(history.get(j).ratio() / ratioMedian(history, range(Math.max(0, j - window), j)) - 1);
        }
        return Sample.median(deviations);
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> r = new ArrayList<>();
        for (int k = from; k < to; k++) {
            r.add(k);
        }
        return r;
    }

    private static double ratioMedian(List<Point> history, List<Integer> positions) {
        return Sample.median(positions.stream().mapToDouble(k -> history.get(k).ratio()).toArray());
    }
}
