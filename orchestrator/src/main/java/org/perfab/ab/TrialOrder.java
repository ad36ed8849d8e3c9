package org.perfab.ab;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Random;
import org.perfab.model.Side;

/**
 * The order in which a run's trials run: the warm-ups first, then the counted trials, in pairs, one
 * trial of each side per pair. Without a seed the first position alternates (A B, B A, A B, ...),
 * so a drift of the machine over the run weighs on both sides alike; with a seed each pair's order
 * is a coin flip from that seed. Builds take turns: pair {@code i} uses build {@code i mod builds}
 * of each side. The order is made as it is walked, never held whole.
 *
 * <p>A full shuffle of all 2N trials was rejected: it can bunch one side's trials at the
 * start and the other's at the end, so a machine that warms up or throttles over the run would bias
 * the comparison. Shuffling within pairs keeps every pair side by side in time.
 *
 * @param trials counted trials per side, at least 1
 * @param warmup warm-ups per side, at least 0
 * @param builds builds per side, at least 1
 * @param seed the seed of each pair's coin; empty for alternation
 */
record TrialOrder(int trials, int warmup, int builds, Optional<Long> seed) implements Iterable<TrialOrder.Slot> {
    TrialOrder {
        if (trials < 1 || warmup < 0 || builds < 1) {
            throw new IllegalArgumentException("trials >= 1, warmup >= 0 and builds >= 1");
        }
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
    record Slot(int seq, Side side, int build, int trial, boolean warmup) {}

    /** Returns how many trials the order holds, both sides and warm-ups included. */
    int size() {
        return 2 * (trials + warmup);
    }

    @Override
    public Iterator<Slot> iterator() {
        Random coin = seed.map(Random::new).orElse(null);
        return new Iterator<>() {
            private int seq;
            private boolean baseFirst;

            @Override
            public boolean hasNext() {
                return seq < size();
            }

            @Override
            public Slot next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                boolean warm = seq < 2 * warmup;
                int pair = (warm ? seq : seq - 2 * warmup) / 2;
                boolean first = seq % 2 == 0;
                if (first) {
                    baseFirst = coin == null ? pair % 2 == 0 : coin.nextBoolean();
                }
                Side side = first == baseFirst ? Side.BASE : Side.HEAD;
                return new Slot(seq++, side, pair % builds, pair, warm);
            }
        };
    }
}
