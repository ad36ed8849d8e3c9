package org.perfab.ab;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.perfab.exec.Commands;
import org.perfab.exec.Counters;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.model.CellComparison;
import org.perfab.model.CellId;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Counted;
import org.perfab.model.RunResults;
import org.perfab.model.Warning;
import org.perfab.stats.Comparison;
import org.perfab.stats.Sensitivity;
import org.perfab.stats.Sequential;
import org.perfab.stats.Verdict;
import org.perfab.workload.Workload;

/**
 * The later looks of a run with adaptive trials: after each round, whether another runs (a cell
 * still undecided, the most trials not reached, the budget not passed), what it measures (the
 * undecided cells' benchmarks, through the harness's own filter where perfab can list and filter
 * it, and under {@code measure: auto} those too noisy to time counted instead), and what it costs.
 * Each thing a run says once (a harness run whole, Valgrind missing) it says once.
 */
final class Looks {
    private final AbRequest request;
    private final Events events;
    private final Clock clock;
    private final Ledger ledger;
    private final RunDir dir;
    private final Commands processes;
    /** Every benchmark the harness lists, when a shard or a later look has listed them. */
    private Optional<Slices.Listing> listing = Optional.empty();
    /** Whether the later looks have tried to list the harness's benchmarks. */
    private boolean listed;
    /** Whether the run has said that its later looks run the harness whole. */
    private boolean saidWhole;
    /** Whether a look's filter left an open cell unmeasured: the later looks run the harness whole. */
    private boolean filterMissed;
    /** Whether the round running now runs the harness through its own filter. */
    private boolean filtered;
    /** Whether the run has said that Valgrind, which measure: auto would count with, is missing. */
    private boolean saidNoValgrind;

    Looks(AbRequest request, Events events, Clock clock, Ledger ledger, RunDir dir, Commands processes) {
        this.request = Objects.requireNonNull(request, "request");
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.dir = Objects.requireNonNull(dir, "dir");
        this.processes = Objects.requireNonNull(processes, "processes");
    }

    /** Takes {@code listing}, a shard's listing of every benchmark, for the later looks to narrow by. */
    void listed(Slices.Listing listing) {
        this.listing = Optional.of(listing);
    }

    /**
     * Returns the runner of a later round of {@code plan}, which measures only its open cells: the
     * harness narrowed to the benchmarks they belong to, through the harness's own filter, and only
     * their benchmarks counted. A harness perfab cannot filter (or list) runs whole, and is said once;
     * the cells it measures beside the open ones are judged at the looks their trials reach.
     */
    Trial narrowed(Trial whole, Slices.Sided trials, Workload workload, Plan plan)
            throws IOException, InterruptedException {
        filtered = false;
        Set<String> open = Set.copyOf(plan.open());
        Workload.Harness harness = trials.harness();
        if (harness.counted() && harness.format() instanceof Workload.Read) {
            // Counted, its output unread: the benchmarks counted one at a time are chosen by name,
            // and a whole command counted is one cell.
            return whole.narrowed(trials, open, Set.of(), 0, true);
        }
        // measure: auto: the benchmarks counted in place of timing them are chosen by name, and the
        // harness runs for the timings of the rest, if any.
        Set<String> counting = plan.counting().stream().filter(open::contains).collect(Collectors.toSet());
        Set<String> timed = open.stream().filter(n -> !counting.contains(n)).collect(Collectors.toSet());
        // Two trials a side decide a count: the round counts in its last two, whatever its size (the
        // last, so that the round's trials reach its look, which the table reads from the measurements).
        int countFrom = Math.max(
                Rounds.previous(plan.thresholds().adaptive().orElseThrow().looks(), plan.trials()),
                plan.trials() - Workload.COUNTED_TRIALS);
        if (timed.isEmpty()) {
            return whole.narrowed(trials, open, counting, countFrom, false);
        }
        if (listing.isEmpty() && !listed && harness.format() instanceof Workload.Read) {
            listed = true;
            Optional<HarnessTool.Slicer> slicer = Slices.of(harness);
            if (slicer.isPresent()) {
                try {
                    listing = Optional.of(Slices.listing(
                            slicer.get(),
                            Slices.Why.LOOK,
                            harness,
                            processes,
                            dir.firstBuilds(),
                            dir.logs(),
                            events::note));
                } catch (RunFailedException | BadInputException e) {
                    // A pattern perfab cannot narrow (go's A/x|B/y) costs the later looks whole trials, not the run.
                    events.note(e.getMessage() + "; the later looks run the harness whole");
                }
            }
        }
        // A shard's harness is narrowed from the whole suite's: its filter names the open cells' benchmarks.
        Optional<Slices.Sided> narrow = filterMissed
                ? Optional.empty()
                : Slices.narrowed(listing.isPresent() ? workload.harness() : harness, listing, timed);
        if (narrow.isEmpty()) {
            if (!saidWhole) {
                saidWhole = true;
                events.note("the later looks run the harness whole: perfab cannot run only the undecided"
                        + " benchmarks of this harness (" + harness.format().id() + "); 'harness.shard' in the workload"
                        + " says how to list and filter it (docs/workloads.md)");
            }
            return whole.narrowed(trials, open, counting, countFrom, true);
        }
        events.note("look "
                + (plan.thresholds().adaptive().orElseThrow().looks().indexOf(plan.trials()) + 1)
                + " measures only the " + timed.size() + " undecided cell name" + (timed.size() == 1 ? "" : "s") + ": "
                + String.join(" ", narrow.get().harness().argvs().get(0)));
        filtered = true;
        return whole.narrowed(narrow.get(), open, counting, countFrom, true);
    }

    /**
     * Returns whether a later round of {@code harness} runs only the benchmarks of the open cells,
     * as {@link #narrowed} would have it: counted ones chosen by name, named commands, or a harness
     * perfab lists and filters, unless its listing failed. A harness run whole costs a later round
     * whole trials.
     */
    private boolean narrows(Workload.Harness harness) {
        return !saidWhole
                && (harness.format() instanceof Workload.Timed
                        || harness.counted() && harness.format() instanceof Workload.Read
                        || Slices.of(harness).isPresent());
    }

    /**
     * Returns the plan of the next round of a run with adaptive trials, when some cell is still
     * undecided, the most trials per side are not reached, and the round keeps the trials within the
     * budget; empty otherwise. A look that leaves cells open says what it decided and what the next
     * costs ({@link Events#looked}), or why the run stops there ({@link Events#overBudget}).
     */
    Optional<Plan> nextRound(Plan plan, Assembly assembly) {
        Optional<Sequential> looks = plan.thresholds().adaptive();
        if (looks.isEmpty()) {
            if (plan.workload().harness().count().auto()) {
                events.note("measure: auto counts, at a later look, the benchmarks its timings cannot"
                        + " tell; this run has one look (adaptive off, or several builds), so it times them only");
            }
            return Optional.empty();
        }
        List<CellComparison> undecided;
        ComparisonTable table;
        synchronized (ledger) {
            table = assembly.results(ledger.snapshot(), false, 0, clock.instant())
                    .table();
            undecided = request.undecided().isPresent()
                    ? table.rows().stream().filter(request.undecided().get()).toList()
                    : table.undecided();
        }
        List<Integer> sizes = looks.get().looks();
        int look = sizes.indexOf(plan.trials()) + 1;
        String at = "look " + look + " of at most " + sizes.size() + " (" + plan.trials() + " trials per side): ";
        checkFilter(plan, Rounds.previous(sizes, plan.trials()), at);
        if (undecided.isEmpty()) {
            events.note(at + "every cell is decided");
            return Optional.empty();
        }
        String names = undecided.stream()
                        .limit(5)
                        .map(r -> r.cell().name() + " " + r.cell().metric())
                        .collect(Collectors.joining(", "))
                + (undecided.size() > 5 ? " and " + (undecided.size() - 5) + " more" : "");
        if (look >= sizes.size()) {
            events.note(at + undecided.size() + " cell" + (undecided.size() == 1 ? " is" : "s are")
                    + " still undecided at the most trials asked (" + names + "); perfab plan " + dir.results()
                    + " says how many trials and builds they need");
            return Optional.empty();
        }
        int next = sizes.get(look);
        List<String> counting = counting(plan, undecided, sizes.get(sizes.size() - 1));
        List<String> open =
                undecided.stream().map(r -> r.cell().name()).distinct().sorted().toList();
        Ledger.Snapshot done = ledger.snapshot();
        Events.Look found = look(
                table,
                undecided,
                look,
                sizes.size(),
                next - plan.trials(),
                open.size(),
                price(plan, assembly, sizes, next, open, done.trials()));
        if (request.budget().isPresent()) {
            // The budget is the whole run's: a resumed run counts what its earlier processes spent.
            double round = Double.isNaN(found.nextSeconds()) ? 0 : found.nextSeconds();
            double spent = done.spentSeconds();
            if (spent + round > request.budget().get().toMillis() / 1000.0) {
                Duration enough = Rounds.enough(spent + round);
                events.overBudget(found, request.budget().get(), spent, enough);
                ledger.warning(budgetStop(found, plan.trials(), request.budget().get(), spent, enough));
                return Optional.empty();
            }
        }
        events.looked(found);
        return Optional.of(plan.withRound(next, open, counting));
    }

    /**
     * Says so when the round of {@code plan} (its counted trials from {@code from} on) measured none
     * of an open cell it timed, on either side, and runs the later looks' harness whole: the
     * harness's filter did not run what perfab asked of it, and a cell it leaves out would keep an
     * earlier look's trials while its later ones were spent on the others.
     */
    private void checkFilter(Plan plan, int from, String at) {
        if (!filtered || filterMissed) {
            return;
        }
        Set<String> measured = new HashSet<>();
        for (RunResults.TrialRecord t : ledger.snapshot().trials()) {
            if (!t.warmup() && t.trial() >= from && t.status() == RunResults.Status.OK) {
                t.measurements().forEach(m -> measured.add(m.cell().name()));
            }
        }
        if (measured.isEmpty()) {
            return; // every trial of the round failed or was replaced: not the filter's doing
        }
        List<String> missed = plan.open().stream()
                .filter(name -> !plan.counting().contains(name) && !measured.contains(name))
                .sorted()
                .toList();
        if (!missed.isEmpty()) {
            filterMissed = true;
            saidWhole = true;
            events.note(at + "the harness's filter ran none of " + missed.size() + " undecided cell name"
                    + (missed.size() == 1 ? "" : "s") + " it was asked for ("
                    + String.join(", ", missed.subList(0, Math.min(5, missed.size())))
                    + (missed.size() > 5 ? " and " + (missed.size() - 5) + " more" : "")
                    + "); the later looks run the harness whole");
        }
    }

    /**
     * Returns the warning that the run stops at look {@code found}, at {@code trials} per side,
     * since its next look would pass {@code budget}, with {@code spentSeconds} of trials spent:
     * what the results say of the stop, and the budget ({@code enough}) that lets the next look run.
     */
    private static Warning budgetStop(
            Events.Look found, int trials, Duration budget, double spentSeconds, Duration enough) {
        Map<String, Long> figures = new HashMap<>(Map.of(
                "look",
                (long) found.look(),
                "looks",
                (long) found.looks(),
                "trials",
                (long) trials,
                "more",
                (long) found.trials(),
                "benchmarks",
                (long) found.benchmarks(),
                "budgetMillis",
                budget.toMillis(),
                "spentMillis",
                Math.round(spentSeconds * 1000),
                "enoughMillis",
                enough.toMillis()));
        if (!Double.isNaN(found.nextSeconds())) {
            figures.put("nextMillis", Math.round(found.nextSeconds() * 1000));
        }
        return Warning.of(
                Warning.Kind.BUDGET_STOP,
                found.open().stream().map(c -> c.name() + " " + c.metric()).toList(),
                figures);
    }

    /**
     * Returns the benchmarks the next round of a {@code measure: auto} run counts in place of
     * timing them: those already counted, and the undecided whose timings cannot tell, too noisy
     * for the bar even at the most trials ({@code most} a side), which is said. A choice made on
     * the spread alone, never on the change measured: an undecided time row whose sides' spreads
     * would, at the most trials, still hide a change at the bar 1 time in 5 (see
     * {@link Sensitivity#detectable}). Where the run
     * cannot count them (no Valgrind) it says so, once, and times them on; a benchmark
     * count.benchmarks leaves out is timed on.
     */
    private List<String> counting(Plan plan, List<CellComparison> undecided, int most) {
        Workload.Harness h = plan.workload().harness();
        if (!h.count().auto()) {
            return List.of();
        }
        Set<String> counting = new TreeSet<>(plan.counting());
        List<String> hopeless = new ArrayList<>();
        Sensitivity test = new Sensitivity(plan.thresholds().alpha(), Comparison.POWER);
        for (CellComparison r : undecided) {
            // Where the pairs judged, the spread they see, not each side's with the runner's drift in it.
            double atMost = r.comparison().detectableAt(most, test);
            if (!Counted.is(r.cell().metric())
                    && !counting.contains(r.cell().name())
                    && atMost > plan.thresholds().minEffect()
                    && h.count()
                            .benchmarks()
                            .map(p -> p.matcher(r.cell().name()).find())
                            .orElse(true)
                    && !hopeless.contains(r.cell().name())) {
                hopeless.add(r.cell().name());
            }
        }
        if (hopeless.isEmpty()) {
            return List.copyOf(counting);
        }
        String names = hopeless.stream().limit(5).collect(Collectors.joining(", "))
                + (hopeless.size() > 5 ? " and " + (hopeless.size() - 5) + " more" : "");
        if (!processes.has(Counters.VALGRIND)) {
            if (!saidNoValgrind) {
                saidNoValgrind = true;
                events.note(hopeless.size() + " benchmark" + (hopeless.size() == 1 ? " is" : "s are")
                        + " too noisy to time on this machine (" + names + "), and measure: auto would count them,"
                        + " under Valgrind, which is not installed (Debian and Ubuntu: apt-get install valgrind);"
                        + " they are timed on");
            }
            return List.copyOf(counting);
        }
        events.note(hopeless.size() + " benchmark" + (hopeless.size() == 1 ? " is" : "s are") + " too noisy"
                + " to time on this machine even at " + most + " trials a side (" + names + "): counted from now on,"
                + " in place of their timings");
        counting.addAll(hopeless);
        return List.copyOf(counting);
    }

    /**
     * Returns the seconds of the round that takes {@code plan} to {@code next} trials per side
     * measuring the cells named {@code open}, by the trials {@code done}: two sides of the new trials,
     * each as long as the open cells' share of a trial of the last round, or a whole trial of a
     * harness that runs whole (see {@link Rounds#next}).
     */
    private double price(
            Plan plan,
            Assembly assembly,
            List<Integer> sizes,
            int next,
            List<String> open,
            List<RunResults.TrialRecord> done) {
        Workload.Harness h = plan.workload().harness();
        int workers =
                h.perBenchmark() && h.counted() ? Math.max(1, assembly.machine().cores()) : 1;
        return Rounds.next(done, sizes, plan.trials(), next, narrows(h) ? open : List.of(), workers);
    }

    /**
     * Returns what look {@code look} of at most {@code looks} found in {@code table}, whose open cells
     * are {@code undecided}: the next look adds {@code trials} per side, runs {@code benchmarks}
     * benchmarks and takes {@code seconds} (NaN when unknown).
     */
    private static Events.Look look(
            ComparisonTable table,
            List<CellComparison> undecided,
            int look,
            int looks,
            int trials,
            int benchmarks,
            double seconds) {
        List<CellId> open = undecided.stream().map(r -> r.cell().id()).toList();
        Set<CellId> opened = Set.copyOf(open);
        Map<Verdict, Integer> decided = new EnumMap<>(Verdict.class);
        int cells = 0;
        for (CellComparison r : table.rows()) {
            if (r.sameAs().isEmpty() && !r.countedInstead()) { // a row counted instead claims nothing
                cells++;
                if (!opened.contains(r.cell().id())) {
                    decided.merge(r.comparison().verdict(), 1, Integer::sum);
                }
            }
        }
        return new Events.Look(look, looks, cells, decided, open, benchmarks, trials, seconds);
    }
}
