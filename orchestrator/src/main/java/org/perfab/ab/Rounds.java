package org.perfab.ab;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.perfab.model.Measurement;
import org.perfab.model.RunResults;

/**
 * What the rounds of a run with adaptive trials cost: a later round measures only the cells still
 * open, so its trials take the open cells' share of the last round's. A function of the trials run:
 * no clock of its own.
 */
final class Rounds {
    private Rounds() {
    }

    /**
     * Returns the look before the one at {@code trials} trials per side in {@code sizes} (the looks'
     * trials per side): its trials per side, 0 before the first.
     */
    static int previous(List<Integer> sizes, int trials) {
        int before = 0;
        for (int n : sizes) {
            if (n >= trials) {
                break;
            }
            before = n;
        }
        return before;
    }

    /**
     * Returns the seconds one trial of a round that measures the cells named {@code open} will take,
     * from the counted trials of {@code trials} numbered {@code from} on (the last round's): each
     * trial's wall time times the open cells' share of it, by the time the harness said each cell
     * took where it said so for every cell of the trial, else by their number. NaN when no such trial
     * worked.
     */
    static double seconds(List<RunResults.TrialRecord> trials, int from, Collection<String> open) {
        Set<String> wanted = Set.copyOf(open);
        double sum = 0;
        int n = 0;
        for (RunResults.TrialRecord t : trials) {
            if (t.warmup() || t.trial() < from || t.status() != RunResults.Status.OK) {
                continue;
            }
            Set<String> names = new HashSet<>();
            for (Measurement m : t.measurements()) {
                names.add(m.cell().name());
            }
            if (names.isEmpty()) {
                continue;
            }
            double share;
            if (t.seconds().keySet().containsAll(names)) {
                double all = 0;
                double mine = 0;
                for (String name : names) {
                    double s = t.seconds().get(name);
                    all += s;
                    mine += wanted.contains(name) ? s : 0;
                }
                share = all > 0 ? mine / all : 1;
            } else {
                share = names.stream().filter(wanted::contains).count() / (double) names.size();
            }
            sum += t.wallSeconds() * share;
            n++;
        }
        return n == 0 ? Double.NaN : sum / n;
    }
}
