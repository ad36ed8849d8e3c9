package org.perfab.ab;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.perfab.failure.BadInputException;
import org.perfab.git.Commit;
import org.perfab.model.Sharding;
import org.perfab.stats.Sequential;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;
import org.perfab.workload.Durations;

/**
 * The rule of {@code --resume}: a resumed run goes on with every setting it began with, as its plan
 * ({@code run.json}) keeps them. A setting given again that says the same is taken; one that says
 * otherwise is refused, naming both, since the run's trials so far were measured and judged by the
 * run's own. What does not shape what is measured or judged may differ: the cache builds are
 * reused from, and how the results are printed.
 */
final class Resume {
    private Resume() {}

    /**
     * Returns {@code given}, a request to resume the run whose plan {@code file} holds, with the
     * run's own options beside its plan: its budget, the verdicts that fail it, its noise file, and
     * its cache unless another is given. A plan of an earlier perfab, which did not keep them, takes
     * those given.
     *
     * @throws BadInputException naming every setting given that contradicts the run's, with the
     *     run's, when one does
     */
    static AbRequest settle(AbRequest given, Plan plan, Path file) {
        List<String> clashes = new ArrayList<>();
        where(given, plan, clashes);
        size(given, plan, clashes);
        thresholds(given.overrides(), plan.thresholds(), clashes);
        Optional<Plan.Options> kept = plan.options();
        if (kept.isPresent()) {
            options(given, kept.get(), clashes);
        }
        if (!clashes.isEmpty()) {
            throw new BadInputException(String.join(", and ", clashes) + " (saved in " + file + "); resume with the"
                    + " run's settings, or start a new run without --resume");
        }
        if (kept.isEmpty()) {
            return given;
        }
        return given.toBuilder()
                .budget(kept.get().budget())
                .failOn(kept.get().failOn())
                .noise(kept.get().noise().map(Plan.Noise::file))
                .cache(given.cache().or(kept.get()::cache))
                .build();
    }

    /** Checks where the run measures: its repository, its refs and its workload. */
    private static void where(AbRequest given, Plan plan, List<String> clashes) {
        if (given.repository() != null && !sameFolder(given.repository(), plan.repository())) {
            clash(clashes, "--repo " + given.repository(), "--repo " + plan.repository());
        }
        if (given.base().isPresent() && !names(plan.baseTip(), given.base().get())) {
            clash(
                    clashes,
                    "--base " + given.base().get(),
                    "--base " + plan.baseTip().typed());
        }
        if (given.head() != null && !names(plan.head(), given.head())) {
            clash(clashes, "--head " + given.head(), "--head " + plan.head().typed());
        }
        if (given.workload() != null && !sameWorkload(given.workload(), plan.workloadPath())) {
            clash(clashes, "--workload " + given.workload(), "--workload " + plan.workloadPath());
        }
    }

    /** Checks the run's size and order: its trials, builds, looks, seed, padding and shard. */
    private static void size(AbRequest given, Plan plan, List<String> clashes) {
        Optional<Sequential> looks = plan.thresholds().adaptive();
        int first = looks.map(Sequential::first).orElse(plan.trials());
        given.trials()
                .filter(t -> t.value() != first)
                .ifPresent(t -> clash(clashes, shown(t, "--trials", t.value().toString()), "--trials " + first));
        given.builds()
                .filter(b -> b.value() != plan.builds())
                .ifPresent(
                        b -> clash(clashes, shown(b, "--builds", b.value().toString()), "--builds " + plan.builds()));
        // A most of no more than the first round's gives a run of that size, as when the run began.
        given.adaptive()
                .filter(a -> !(a.value() > first
                                ? Optional.of(new Sequential(first, a.value()))
                                : Optional.<Sequential>empty())
                        .equals(looks))
                .ifPresent(a -> clash(
                        clashes,
                        shown(
                                a,
                                "--adaptive",
                                a.value() == 0 ? "off" : a.value().toString()),
                        "--adaptive "
                                + looks.map(s -> Integer.toString(s.max())).orElse("off")));
        given.seed()
                .filter(s -> !Optional.of(s).equals(plan.seed()))
                .ifPresent(s -> clash(
                        clashes,
                        "--seed " + s,
                        plan.seed().map(v -> "--seed " + v).orElse("no --seed")));
        given.padding().filter(p -> p.value() != plan.padding().isPresent()).ifPresent(p -> {
            String option = p.value() ? "--env-padding" : "--no-env-padding";
            clash(
                    clashes,
                    p.from().equals(option) ? option : p.from() + " (" + option + ")",
                    plan.padding().isPresent() ? "--env-padding" : "--no-env-padding");
        });
        given.shard()
                .filter(k -> !Optional.of(k).equals(plan.shard()))
                .ifPresent(k -> clash(
                        clashes,
                        "--shard " + k,
                        plan.shard().map(s -> "--shard " + s).orElse("no --shard")));
        if (!given.shardTimes().isEmpty() && !cut(given.shardTimes()).equals(cut(plan.shardTimes()))) {
            clash(
                    clashes,
                    "--shard-times (" + cut(given.shardTimes()) + ")",
                    plan.shardTimes().isEmpty()
                            ? "no --shard-times (a cut by count)"
                            : "--shard-times (" + cut(plan.shardTimes()) + ")");
        }
    }

    /** Checks the verdict settings given against the run's, each by the value in force. */
    private static void thresholds(ThresholdSettings o, Thresholds t, List<String> clashes) {
        number(clashes, "--alpha", o.alpha(), t.alpha());
        number(clashes, "--min-effect", o.minEffect(), t.minEffect());
        number(clashes, "--inconclusive", o.inconclusive(), t.inconclusive());
        o.fdr()
                .filter(q -> Double.compare(q, t.fdr()) != 0)
                .ifPresent(q -> clash(
                        clashes, "--fdr " + rate(q), Double.isNaN(t.fdr()) ? "no --fdr" : "--fdr " + rate(t.fdr())));
        number(clashes, "--outlier-floor", o.outlierFloor(), t.effectiveOutlierFloor());
        number(clashes, "--noisy-above", o.noisyAbove(), t.effectiveNoisyAbove());
        o.test()
                .filter(x -> x != t.test())
                .ifPresent(x ->
                        clash(clashes, "--test " + x.id(), "--test " + t.test().id()));
    }

    /** Checks the options the plan keeps beside its trial order; the cache may differ. */
    private static void options(AbRequest given, Plan.Options kept, List<String> clashes) {
        given.budget()
                .filter(b -> !Optional.of(b).equals(kept.budget()))
                .ifPresent(b -> clash(
                        clashes,
                        "--budget " + Durations.format(b),
                        kept.budget()
                                .map(k -> "--budget " + Durations.format(k))
                                .orElse("no --budget")));
        if (!given.failOn().isEmpty() && !EnumSet.copyOf(given.failOn()).equals(verdicts(kept.failOn()))) {
            clash(clashes, failOn(given.failOn()), kept.failOn().isEmpty() ? "no --fail-on" : failOn(kept.failOn()));
        }
        given.noise()
                .filter(n -> !Optional.of(n).equals(kept.noise().map(Plan.Noise::file)))
                .ifPresent(n -> clash(
                        clashes,
                        "--noise " + n,
                        kept.noise().map(k -> "--noise " + k.file()).orElse("no --noise")));
    }

    private static void clash(List<String> clashes, String given, String saved) {
        clashes.add(
                given + " contradicts " + (saved.startsWith("no ") ? "the run, which has " : "the run's own ") + saved);
    }

    /** Returns {@code s} as given: {@code --trials 8}, or {@code --preset release (--trials 20)}. */
    private static String shown(Setting<Integer> s, String option, String value) {
        return s.from().equals(option) ? option + " " + value : s.from() + " (" + option + " " + value + ")";
    }

    private static void number(List<String> clashes, String option, Optional<Double> given, double saved) {
        given.filter(v -> Double.compare(v, saved) != 0)
                .ifPresent(v -> clash(clashes, option + " " + decimal(v), option + " " + decimal(saved)));
    }

    /** Returns {@code v} as one would type it: {@code 3}, {@code 0.05}. */
    private static String decimal(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    private static String rate(double q) {
        return q == Thresholds.FDR_OFF ? "off" : decimal(q);
    }

    private static String cut(Map<String, Double> times) {
        return times.isEmpty() ? "count" : Sharding.cut(times);
    }

    private static EnumSet<Verdict> verdicts(List<Verdict> verdicts) {
        return verdicts.isEmpty() ? EnumSet.noneOf(Verdict.class) : EnumSet.copyOf(verdicts);
    }

    private static String failOn(List<Verdict> verdicts) {
        return verdicts(verdicts).stream().map(v -> "--fail-on " + v.id()).collect(Collectors.joining(" "));
    }

    /** Returns whether {@code typed} names {@code c}: as the run was given it, or by its id or a prefix of it. */
    private static boolean names(Commit c, String typed) {
        return c.typed().equals(typed) || typed.matches("[0-9a-f]{7,40}") && c.id().startsWith(typed);
    }

    /** Returns whether {@code given} and the folder {@code saved} names are one folder. */
    private static boolean sameFolder(Path given, String saved) {
        if (given.toString().equals(saved)) {
            return true;
        }
        try {
            Path other = Path.of(saved);
            try {
                return given.toRealPath().equals(other.toRealPath());
            } catch (IOException e) {
                return given.toAbsolutePath()
                        .normalize()
                        .equals(other.toAbsolutePath().normalize());
            }
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /**
     * Returns whether the workload path {@code given} names the run's, {@code saved} (in the head's
     * tree): the same path, or its end, as given from a folder of the tree.
     */
    private static boolean sameWorkload(String given, String saved) {
        try {
            Path g = Path.of(given).normalize();
            return Path.of(saved).equals(g)
                    || !g.toString().isEmpty() && Path.of(saved).endsWith(g);
        } catch (InvalidPathException e) {
            return false;
        }
    }
}
