package org.perfab.ab;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.perfab.report.Side;

/** The order in which trials run. */
final class TrialOrder {
    private TrialOrder() {
    }

    /**
     * One trial to run.
     *
     * @param seq position in the order, from 0
     * @param side the side it measures
     * @param build the build of that side
     * @param trial its number among that side's warm-ups or counted trials, from 0
     * @param warmup whether it is an uncounted warm-up
     */
    record Slot(int seq, Side side, int build, int trial, boolean warmup) {
    }

    /**
     * Returns the order of a run: the warm-ups first, then the counted trials, in pairs, one trial
     * of each side per pair. Without a seed the first position alternates (A B, B A, A B, ...), so
     * a drift of the machine over the run weighs on both sides alike; with a seed each pair's order
     * is a coin flip from that seed. Builds take turns: pair {@code i} uses build
     * {@code i mod builds} of each side.
     *
     * <p>// Note: a full shuffle of all 2N trials was rejected: it can bunch one side's trials at
     * the start and the other's at the end, so a machine that warms up or throttles over the run
     * would bias the comparison. Shuffling within pairs keeps every pair side by side in time.
     */
    static List<Slot> of(int trials, int warmup, int builds, Optional<Long> seed) {
        if (trials < 1 || warmup < 0 || builds < 1) {
            throw new IllegalArgumentException("trials >= 1, warmup >= 0 and builds >= 1");
        }
        Random coin = seed.map(Random::new).orElse(null);
        List<Slot> order = new ArrayList<>();
        pairs(order, warmup, builds, coin, true);
        pairs(order, trials, builds, coin, false);
        return order;
    }

    private static void pairs(List<Slot> order, int count, int builds, Random coin, boolean warmup) {
        for (int i = 0; i < count; i++) {
            boolean baseFirst = coin == null ? i % 2 == 0 : coin.nextBoolean();
            int build = i % builds;
            Side first = baseFirst ? Side.BASE : Side.HEAD;
            Side second = baseFirst ? Side.HEAD : Side.BASE;
            order.add(new Slot(order.size(), first, build, i, warmup));
            order.add(new Slot(order.size(), second, build, i, warmup));
        }
    }

    /** Returns the order as letters, {@code A} for base and {@code B} for head: {@code ABBAAB}. */
    static String letters(List<Slot> order) {
        StringBuilder s = new StringBuilder();
        for (Slot slot : order) {
            s.append(slot.side() == Side.BASE ? 'A' : 'B');
        }
        return s.toString();
    }
}
