package org.perfab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.perfab.model.CellComparison;
import org.perfab.model.Counted;
import org.perfab.model.FunctionChange;
import org.perfab.model.Outlier;
import org.perfab.model.Side;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * The words for a {@link Caveat}: what it means for the row a reader is looking at.
 * {@link Caveat#UNDERPOWERED} has none here: {@link Warnings} names every such cell in one line.
 *
 * <p>A note is prose, as a warning is: the names it quotes (a function's, a metric's) come from the
 * pull request and are made plain here ({@link Untrusted#plain(String)}), and every renderer escapes
 * the whole note for its format, as it does a warning.
 */
final class Notes {
    private Notes() {}

    /**
     * Returns how one function's count moved: {@code compress (lz4.c) +1.2M (+26.0%)}, or
     * {@code (new)} and {@code (gone)} for a function only one side ran.
     */
    static String moved(FunctionChange f) {
        int colon = f.function().lastIndexOf(':');
        String file = colon < 0 ? "" : f.function().substring(0, colon);
        String name = colon < 0 ? f.function() : f.function().substring(colon + 1);
        String base = file.substring(file.lastIndexOf('/') + 1);
        String where = base.isEmpty() || base.equals("???")
                ? Untrusted.plain(name)
                : Untrusted.plain(name) + " (" + Untrusted.plain(base) + ")";
        String share =
                f.base() == 0 ? "new" : f.head() == 0 ? "gone" : Numbers.signedPercent(100 * f.delta() / f.base());
        return where + " " + (f.delta() > 0 ? "+" : "-") + count(Math.abs(f.delta())) + " (" + share + ")";
    }

    /** Returns a count in three figures: 950, 12.3k, 4.56M, 7.89G. */
    private static String count(double n) {
        String[] suffix = {"", "k", "M", "G", "T"};
        int i = 0;
        while (n >= 999.5 && i < suffix.length - 1) {
            n /= 1000;
            i++;
        }
        return (i == 0
                        ? String.format(Locale.ROOT, "%.0f", n)
                        : String.format(Locale.ROOT, n < 9.995 ? "%.2f" : n < 99.95 ? "%.1f" : "%.0f", n))
                + suffix[i];
    }

    /** The spread (CV, in percent) past which the counts of a cell are said to move: counts of one build barely do. */
    static final double COUNT_CV = 1.0;

    /**
     * Returns the notes of a row of a table judged by {@code t}: a sentence per caveat of its
     * comparison (see {@link #caveats}), and whether its change lies inside its A/A noise floor.
     * Every figure a note quotes is one of the row's, as the table shows it, or of its look.
     */
    static List<String> of(CellComparison row, Thresholds t) {
        List<String> notes = new ArrayList<>();
        if (row.countedInstead()) {
            // Its figures are shown for what they are; what they would mean is the counts' rows' to say.
            notes.add("too noisy to time here: counted instead, and its counts' rows (instructions/op) give the"
                    + " verdict");
            return notes;
        }
        List<Outlier> outliers = row.outliers();
        if (!outliers.isEmpty()) {
            List<String> each = new ArrayList<>();
            for (Outlier o : outliers.subList(0, Math.min(3, outliers.size()))) {
                each.add(o.side().id() + " trial " + (o.trial() + 1) + " " + Numbers.signedPercent(o.deviation()));
            }
            notes.add(outliers.size() + " far trial" + (outliers.size() == 1 ? "" : "s") + " set aside ("
                    + String.join(", ", each) + (outliers.size() > 3 ? " and " + (outliers.size() - 3) + " more" : "")
                    + " from its side's median)");
        }
        row.sameAs()
                .ifPresent(primary -> notes.add("the same measurement as its " + Untrusted.plain(primary.metric())
                        + " in other terms: it takes that verdict and is not counted apart"));
        for (String note : caveats(row, t)) {
            notes.add(note.equals(ONE_SIDED) ? oneSided(outliers) : note);
        }
        row.look()
                .filter(l -> l.look() < l.looks())
                .ifPresent(l -> notes.add(Words.label(row.comparison().verdict()) + " at look " + l.look() + " of "
                        + l.looks() + ": at " + l.trials()
                        + " trials per side its p "
                        + Numbers.pValue(row.comparison().pValue()) + " is under that look's level "
                        + Numbers.value(l.alpha())
                        + ", which stands: the looks' levels keep the chance of a false call at any"
                        + " look to alpha, so a cell flagged at any look is flagged; the figures are that look's"));
        double cv =
                Math.max(row.comparison().base().cv(), row.comparison().head().cv());
        if (Counted.is(row.cell().metric()) && cv > COUNT_CV) { // NaN (fewer than 2 values) is never past it
            notes.add("its counts vary by " + Numbers.percent(cv) + " between trials, where a count of the same code"
                    + " barely moves: address-space randomization, hash seeds, time- or thread-dependent code, or a JIT"
                    + " (setarch -R, a fixed seed or one thread keeps them still)");
        }
        Verdict v = row.comparison().verdict();
        if (!row.functions().isEmpty() && v != Verdict.UNCHANGED && v != Verdict.PROFILE && v != Verdict.NO_DATA) {
            notes.add("moved most in "
                    + row.functions().stream().map(Notes::moved).collect(Collectors.joining(", "))
                    + (row.cell().metric().equals(Counted.INSTRUCTIONS_PER_OP)
                            ? " (Valgrind's counts by function, per operation)"
                            : " (Cachegrind's counts by function, mean per trial)"));
        }
        if (row.insideNoise()) {
            notes.add("the change lies inside this cell's A/A noise floor: a run of this size finds "
                    + (row.noiseFloor() == Double.POSITIVE_INFINITY
                            ? "no change, however large, with 80% power"
                            : "only changes past " + Numbers.percent(row.noiseFloor())));
        }
        return notes;
    }

    /**
     * Returns a sentence per caveat of {@code row}'s comparison but the underpowered one, in the
     * caveats' order, for a table judged by {@code t}. A sentence that quotes p quotes the row's p,
     * one that quotes q its Benjamini-Hochberg adjusted p, each named so; where a look of adaptive
     * trials decided, it names the look and the level p was held to there.
     */
    static List<String> caveats(CellComparison row, Thresholds t) {
        Comparison c = row.comparison();
        List<String> notes = new ArrayList<>();
        boolean notMeasured = c.caveats().contains(Caveat.NOT_MEASURED);
        for (Caveat caveat : c.caveats()) {
            if (caveat == Caveat.UNDERPOWERED || caveat == Caveat.COUNTED_INSTEAD || caveat == Caveat.NOT_MEASURED) {
                continue;
            }
            if (notMeasured && (caveat == Caveat.BASE_TOO_FEW || caveat == Caveat.HEAD_TOO_FEW)) {
                continue; // its label and its shard say it once: no side measured it
            }
            notes.add(
                    switch (caveat) {
                        case BASE_TOO_FEW -> tooFew("baseline", c.base().n());
                        case HEAD_TOO_FEW -> tooFew("candidate", c.head().n());
                        case NON_POSITIVE_BASE_MEAN ->
                            "baseline mean is " + Numbers.value(c.base().mean()) + ": no percent change";
                        case UNBOUNDED_INTERVAL -> "baseline is too noisy to bound the change";
                        case ONE_SIDED -> ONE_SIDED;
                        case SPLIT ->
                            "the trials fall into two groups (a busy machine's two speeds): like is compared with"
                                    + " like, the same group on both sides, or every trial where the groups disagree; pin the"
                                    + " trials (harness.cpus), run more of them, or count instructions";
                        case NOT_AT_LOOK ->
                            shortOfItsLook(row, t) + ": adaptive trials spend alpha across their looks, and"
                                    + (lastLook(row, t)
                                            ? " the last look's level is what the early ones leave; only a run of more"
                                                    + " trials settles it"
                                            : " early looks test at a small level; more trials settle it");
                        case NOT_AMONG_MANY ->
                            "p " + Numbers.pValue(c.pValue()) + " is under alpha " + Numbers.value(t.alpha())
                                    + " on its own, but judged together with the "
                                    + row.look()
                                            .map(l -> "cells of look " + l.look())
                                            .orElse("run's other tested cells")
                                    + " its adjusted p (Benjamini-Hochberg q) "
                                    + Numbers.pValue(c.qValue()) + " is not under " + Numbers.value(t.nominalFdrRate())
                                    + ": judging"
                                    + " together costs power at few trials; more trials, --cell or --fdr off get it back";
                        case UNDERPOWERED, COUNTED_INSTEAD, NOT_MEASURED -> throw new AssertionError("skipped above");
                    });
        }
        return notes;
    }

    /**
     * Returns why a row significant at alpha is short of its look, in its own figures: at look 2
     * (10 trials per side), p 0.004 under alpha 0.05 but not under that look's level 0.001, its
     * adjusted p quoted beside where the cells were judged together; or p under the look's level
     * and its adjusted p not under the look's rate.
     */
    private static String shortOfItsLook(CellComparison row, Thresholds t) {
        Comparison c = row.comparison();
        String p = "p " + Numbers.pValue(c.pValue());
        String q = "its adjusted p (Benjamini-Hochberg q) ";
        if (row.look().isEmpty()) {
            return p + " is under alpha " + Numbers.value(t.alpha()) + " but not under its look's level";
        }
        var l = row.look().get();
        String at = "at look " + l.look() + " (" + l.trials() + " trials per side), ";
        if (!(c.pValue() < l.alpha())) {
            return at + p + " is under alpha " + Numbers.value(t.alpha()) + " but not under that look's level "
                    + Numbers.value(l.alpha())
                    + (Double.isNaN(c.qValue())
                            ? ""
                            : "; judged together with the cells of that look, " + q + "is "
                                    + Numbers.pValue(c.qValue()));
        }
        // Its p passed the look's level; judged together, its q did not pass the look's share of the rate.
        double rate = t.nominalFdrRate() * l.alpha() / t.alpha();
        return at + p + " is under that look's level " + Numbers.value(l.alpha()) + ", but judged together with the"
                + " cells of that look " + q + Numbers.pValue(c.qValue()) + " is not under the look's rate "
                + Numbers.value(rate) + " (" + Numbers.value(t.nominalFdrRate()) + " over all the looks)";
    }

    /** Returns whether {@code row}'s figures are of the last look its run's adaptive trials may take. */
    private static boolean lastLook(CellComparison row, Thresholds t) {
        return row.look().isPresent()
                && t.adaptive().isPresent()
                && row.look().get().look() == t.adaptive().get().looks().size();
    }

    /** What far trials of one side only mean, where it is not known which were set aside. */
    private static final String ONE_SIDED = "far trials on one side only: a change that hits some trials until the"
            + " machine says otherwise; more trials tell the two apart";

    /** Returns what far trials of one side only mean for a row that set {@code outliers} aside. */
    private static String oneSided(List<Outlier> outliers) {
        if (outliers.isEmpty()) {
            return "far trials on one side only: a change that hits some trials until the machine says otherwise,"
                    + " so every trial is judged, the far ones with the rest; more trials tell the two apart";
        }
        if (outliers.stream().allMatch(o -> o.side() == Side.BASE)) {
            return "far trials on the baseline's side only: its slow trials hide no slowdown, and the rest decide";
        }
        return "far trials on the candidate's side only: the rest already show the change, and the far trials"
                + " cannot undo it";
    }

    private static String tooFew(String side, int n) {
        return n == 0
                ? "not measured on the " + side
                : "only 1 value on the " + side + ": a comparison needs at least 2";
    }
}
