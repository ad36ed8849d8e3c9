package org.perfab.ab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.perfab.ab.HarnessTool.Slicer;
import org.perfab.exec.Commands;
import org.perfab.exec.Processes;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.failure.RunInterruptedException;
import org.perfab.model.Sharding;
import org.perfab.model.Side;
import org.perfab.workload.Workload;

/**
 * One shard's slice of a harness's benchmarks: the benchmarks listed by the harness itself, in
 * each side's tree, and the harness's command that runs only the slice, as the harness's own
 * filter, on each side its own benchmarks of it ({@link Sided}). A benchmark's shard comes from a hash of its name (see {@link Sharding#assign}), so every
 * shard of a matrix finds the same slices without talking to the others.
 *
 * <p>A harness is listed and filtered as its tool says ({@link HarnessTool#slicer}: go test, Google
 * Benchmark, pytest-benchmark and JMH), or as its workload says ({@code harness.shard}), which
 * comes first. Arguments are added at the command's end; a {@code sh -c SCRIPT} harness gets them
 * as {@code "$@"} at its script's end.
 */
final class Slices {
    /** The most benchmarks a listing may name: past any suite, short of a harness that prints garbage forever. */
    private static final int MAX_LISTED = 1_000_000;
    /** The longest argument perfab passes: Linux refuses one of more than 128 KiB. */
    static final int LONGEST_ARGUMENT = 128 * 1024 - 1;
    /** The most bytes of arguments perfab passes, leaving room below Linux's 2 MiB for the environment. */
    static final long MOST_ARGUMENTS = 1536 * 1024;

    private Slices() {}

    /**
     * What a shard runs.
     *
     * @param harness the harness, running only the slice: on each side, its own benchmarks of it
     * @param benchmarks the slice, as the harness names its benchmarks, sorted
     * @param listed how many benchmarks the harness listed in all
     * @param suite the digest of every name listed (see {@link Sharding#suite})
     * @param cut how the suite was cut (see {@link Sharding.Part#cut})
     * @param listing the whole suite as listed, which a later look narrows further
     */
    record Slice(Sided harness, List<String> benchmarks, int listed, String suite, String cut, Listing listing) {
        Slice {
            benchmarks = List.copyOf(benchmarks);
        }
    }

    /**
     * Which listed benchmark a measured one belongs to: the same name, else the longest listed name
     * it starts with, followed by a character that is not part of a word ({@code BM_Sum/64},
     * {@code Bench.run:size=8}). Only the lengths listed names have are tried, so a name of many
     * slashes costs no more than a plain one.
     */
    static final class Owners {
        private final Set<String> listed;
        private final int[] lengths;

        Owners(Set<String> listed) {
            this.listed = listed;
            this.lengths =
                    listed.stream().mapToInt(String::length).distinct().sorted().toArray();
        }

        /** Returns the listed benchmark {@code name} (as listed names go) belongs to; empty when none. */
        Optional<String> of(String name) {
            if (listed.contains(name)) {
                return Optional.of(name);
            }
            for (int k = lengths.length - 1; k >= 0; k--) {
                int at = lengths[k];
                if (at > 0 && at < name.length()) {
                    char c = name.charAt(at);
                    if (!Character.isLetterOrDigit(c) && c != '_' && listed.contains(name.substring(0, at))) {
                        return Optional.of(name.substring(0, at));
                    }
                }
            }
            return Optional.empty();
        }
    }

    /**
     * A harness, and what each side runs of it: the benchmarks the side lists itself, of those the
     * harness runs.
     *
     * @param harness the harness as a whole, running every benchmark of either side it runs: what
     *     its settings and its counting are read from
     * @param sides what each side runs; a side absent lists none of the benchmarks, and its trials
     *     measure nothing, as a side without a benchmark skips it in a run of the whole suite
     */
    record Sided(Workload.Harness harness, Map<Side, Workload.Harness> sides) {
        Sided {
            Objects.requireNonNull(harness, "harness");
            sides = sides.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(sides));
        }

        /** Returns {@code harness} run as it is on either side. */
        static Sided both(Workload.Harness harness) {
            return new Sided(harness, Map.of(Side.BASE, harness, Side.HEAD, harness));
        }

        /** Returns what {@code side} runs; empty when it lists none of the benchmarks, and measures nothing. */
        Optional<Workload.Harness> of(Side side) {
            return Optional.ofNullable(sides.get(side));
        }
    }

    /**
     * Every benchmark a harness lists in either side's tree, and how it is filtered.
     *
     * @param slicer how the harness lists and filters its benchmarks
     * @param all every name listed on either side, sorted
     * @param own the names each side listed, sorted; a side absent could not list
     */
    record Listing(Slicer slicer, List<String> all, Map<Side, List<String>> own) {
        Listing {
            all = List.copyOf(all);
            Map<Side, List<String>> copy = new EnumMap<>(Side.class);
            own.forEach((side, names) -> copy.put(side, List.copyOf(names)));
            own = Collections.unmodifiableMap(copy);
        }

        /**
         * Returns {@code harness} running {@code benchmarks} (sorted, of {@link #all}) and no other,
         * through its filter: each side its own of them, a side that has none of them nothing, and a
         * side that could not list all of them (its trials fare as in a run of the whole suite).
         * {@code cells} are the cells the harness may narrow its benchmarks to (see
         * {@link Slicer#run(List, List, Collection)}); empty for the benchmarks whole.
         */
        Sided filter(Workload.Harness harness, List<String> benchmarks, Collection<String> cells) {
            Workload.Read read = (Workload.Read) harness.format();
            Workload.Harness whole = harness.with(new Workload.Read(slicer.run(benchmarks, all, cells), read.format()));
            Map<Side, Workload.Harness> sides = new EnumMap<>(Side.class);
            for (Side side : Side.values()) {
                if (!own.containsKey(side)) {
                    sides.put(side, whole);
                    continue;
                }
                Set<String> listed = new java.util.HashSet<>(own.get(side));
                List<String> mine = benchmarks.stream().filter(listed::contains).toList();
                if (!mine.isEmpty()) {
                    sides.put(
                            side,
                            harness.with(new Workload.Read(slicer.run(mine, own.get(side), cells), read.format())));
                }
            }
            return new Sided(whole, sides);
        }
    }

    /**
     * Returns the benchmarks {@code harness} lists in the tree of each of {@code sides} (the head's
     * first), with the environment a trial there gets: each side's own, and every name of either.
     * A side that cannot list is said, and the other side's list stands. {@code why} names the
     * listing in messages ({@code --shard}) and its logs' files ({@code shard-list-head.out}).
     *
     * @throws RunFailedException when the listing fails on every side, or lists nothing
     * @throws RunInterruptedException when the run was stopped while it listed
     */
    static Listing listing(
            Slicer slicer,
            Why why,
            Workload.Harness harness,
            Commands exec,
            List<SideDir> sides,
            Path logs,
            Consumer<String> notes)
            throws IOException, InterruptedException {
        Set<String> all = new TreeSet<>();
        Map<Side, List<String>> own = new EnumMap<>(Side.class);
        Files.createDirectories(logs);
        List<String> failed = new ArrayList<>();
        for (SideDir dir : sides) {
            String side = dir.side().id();
            Path out = logs.resolve(why.file() + "-" + side + ".out");
            Path err = logs.resolve(why.file() + "-" + side + ".err");
            Processes.Outcome o = exec.run(
                    new Processes.Command(slicer.list(), dir.tree(), env(dir), harness.timeout(), out, err, false));
            if (o.stopped()) {
                throw new RunInterruptedException(
                        "interrupted while the benchmarks were listed " + why.words() + "; continue with --resume");
            }
            if (!o.succeeded()) {
                // A side whose tree cannot list (a package only the other has) leaves the slices to
                // the other side's list, as its trials would leave those cells without data.
                failed.add("listing the benchmarks " + why.words() + " in " + side + " ("
                        + String.join(" ", slicer.list()) + ") " + o.failure() + "; its output is in " + out + " and "
                        + err);
                continue;
            }
            List<String> names = slicer.names(Files.readAllLines(out, StandardCharsets.UTF_8));
            own.put(dir.side(), List.copyOf(new TreeSet<>(names)));
            all.addAll(names);
            if (all.size() > MAX_LISTED) {
                throw new RunFailedException("the listing " + why.words() + " in " + side + " names more than "
                        + MAX_LISTED + " benchmarks (" + out + ")");
            }
        }
        if (failed.size() == sides.size()) {
            throw new RunFailedException(failed.get(0));
        }
        failed.forEach(f -> notes.accept(f + "; the other side's list stands"));
        if (all.isEmpty()) {
            throw new RunFailedException("the listing " + why.words() + " (" + String.join(" ", slicer.list())
                    + ") names no benchmark in either side; its output is in "
                    + logs.resolve(why.file() + "-head.out"));
        }
        return new Listing(slicer, List.copyOf(all), own);
    }

    /** Why a harness's benchmarks are listed: for a shard's slice, or for a later look's undecided cells. */
    enum Why {
        /** For {@code --shard}: before any trial. */
        SHARD("for --shard, before any trial", "shard-list"),
        /** For a later look, which runs only the benchmarks still undecided. */
        LOOK("for the later looks", "look-list");

        private final String words;
        private final String file;

        Why(String words, String file) {
            this.words = words;
            this.file = file;
        }

        String words() {
            return words;
        }

        String file() {
            return file;
        }
    }

    /**
     * Returns shard {@code index} of {@code count} of {@code harness}'s benchmarks: listed in the tree
     * of each of {@code sides} (the head's first), every name of either side; each side runs its own
     * of the slice (see {@link Listing#filter}).
     *
     * @throws BadInputException when perfab cannot list or filter the harness, or the slice's
     *     command would be too long
     * @param earlier how long each benchmark (a cell's name) took a trial pair in an earlier run (see
     *     {@link RunResults#benchmarkTimes}): the suite is cut at equal time by it; empty to cut by count
     * @throws RunFailedException when the listing fails on every side, or lists nothing
     * @throws RunInterruptedException when the run was stopped while it listed
     */
    static Slice slice(
            int index,
            int count,
            Workload.Harness harness,
            Commands exec,
            List<SideDir> sides,
            Path logs,
            Consumer<String> notes,
            Map<String, Double> earlier)
            throws IOException, InterruptedException {
        Slicer slicer = slicer(harness);
        Listing listing = listing(slicer, Why.SHARD, harness, exec, sides, logs, notes);
        Set<String> all = new TreeSet<>(listing.all());
        Times cut = times(all, earlier, slicer);
        Map<String, Double> times = cut.times();
        Map<String, Integer> shards = times.isEmpty() ? Sharding.assign(all, count) : Sharding.assign(times, count);
        List<String> mine = all.stream().filter(n -> shards.get(n) == index).toList();
        if (times.isEmpty()) {
            notes.accept("shard " + index + " of " + count + ": " + mine.size() + " of the " + all.size()
                    + " benchmarks listed"
                    + (earlier.isEmpty() ? "" : ", cut by count: the earlier run's times name none of them"));
        } else {
            double total =
                    times.values().stream().mapToDouble(Double::doubleValue).sum();
            double own = mine.stream().mapToDouble(times::get).sum();
            notes.accept(String.format(
                    java.util.Locale.ROOT,
                    "shard %d of %d: %d of the %d benchmarks listed, cut at"
                            + " equal time by an earlier run's (%d of them timed there): %.1f s of the suite's %.1f s a trial"
                            + " pair",
                    index,
                    count,
                    mine.size(),
                    all.size(),
                    cut.timed(),
                    own,
                    total));
        }
        Sided run = mine.isEmpty() ? Sided.both(harness) : listing.filter(harness, mine, List.of());
        for (Workload.Harness h : commands(run)) {
            checkLength(
                    h.argvs().get(0),
                    "--shard " + index + "/" + count + ": the harness's command for the slice (" + mine.size()
                            + " benchmarks)");
        }
        for (Side side : Side.values()) {
            if (!mine.isEmpty() && run.of(side).isEmpty()) {
                notes.accept("shard " + index + " of " + count + ": " + side.id()
                        + (mine.size() == 1
                                ? " does not list the slice's one benchmark, and skips it"
                                : " lists none of the slice's " + mine.size() + " benchmarks, and skips them")
                        + ", as a run of the whole suite would: its"
                        + " trials measure nothing");
            }
        }
        return new Slice(
                run,
                mine,
                all.size(),
                Sharding.suite(all),
                times.isEmpty() ? Sharding.BY_COUNT : Sharding.cut(times),
                listing);
    }

    /**
     * Refuses {@code run} when Linux would refuse it: an argument past {@link #LONGEST_ARGUMENT} or all
     * of them past {@link #MOST_ARGUMENTS}. {@code what} names the command.
     *
     * @throws BadInputException naming it and its length
     */
    private static void checkLength(List<String> run, String what) {
        if (!fits(run)) {
            long bytes = run.stream()
                    .mapToLong(a -> a.getBytes(StandardCharsets.UTF_8).length + 1)
                    .sum();
            int longest = run.stream()
                    .mapToInt(a -> a.getBytes(StandardCharsets.UTF_8).length)
                    .max()
                    .orElse(0);
            throw new BadInputException(what + " is " + bytes + " bytes, its longest argument " + longest + ", past"
                    + " what a command may hold (Linux takes 128 KiB an argument, about 2 MiB in all): split the suite"
                    + " into more shards, or, where the filter names the other slices' benchmarks (JMH, pytest), give"
                    + " the workload's 'harness.shard' (docs/workloads.md)");
        }
    }

    /** Returns the commands {@code run} may run: the harness as a whole, and each side's. */
    private static Set<Workload.Harness> commands(Sided run) {
        Set<Workload.Harness> all = new java.util.LinkedHashSet<>(run.sides().values());
        all.add(run.harness());
        return all;
    }

    /** Returns whether Linux takes {@code run} as one command's arguments. */
    private static boolean fits(List<String> run) {
        long bytes = 0;
        int longest = 0;
        for (String a : run) {
            int n = a.getBytes(StandardCharsets.UTF_8).length;
            bytes += n + 1;
            longest = Math.max(longest, n);
        }
        return longest <= LONGEST_ARGUMENT && bytes <= MOST_ARGUMENTS;
    }

    /**
     * Returns {@code harness} running only what the cells named {@code open} need: the benchmarks
     * they belong to, as {@code listing} lists them, through the harness's own filter (go test's
     * sub-benchmarks too), each side its own of them (see {@link Listing#filter}); or the named
     * commands of a timed harness. Empty when the harness runs whole: no listing, a cell no listed
     * benchmark owns, or a command Linux would refuse.
     */
    static Optional<Sided> narrowed(Workload.Harness harness, Optional<Listing> listing, Collection<String> open) {
        if (open.isEmpty()) {
            return Optional.empty();
        }
        if (harness.format() instanceof Workload.Timed timed) {
            Map<String, List<String>> kept = new LinkedHashMap<>();
            timed.commands().forEach((name, argv) -> {
                if (open.contains(name)) {
                    kept.put(name, argv);
                }
            });
            return kept.isEmpty() || kept.size() == timed.commands().size()
                    ? Optional.empty()
                    : Optional.of(Sided.both(harness.with(new Workload.Timed(kept))));
        }
        if (listing.isEmpty() || !(harness.format() instanceof Workload.Read)) {
            return Optional.empty();
        }
        Slicer slicer = listing.get().slicer();
        Owners owners = new Owners(Set.copyOf(listing.get().all()));
        Set<String> mine = new TreeSet<>();
        for (String cell : open) {
            Optional<String> owner = owners.of(slicer.asListed(cell));
            if (owner.isEmpty()) {
                return Optional.empty(); // a cell perfab cannot place: the harness runs whole
            }
            mine.add(owner.get());
        }
        Sided run = listing.get().filter(harness, List.copyOf(mine), open);
        return commands(run).stream().allMatch(h -> fits(h.argvs().get(0))) ? Optional.of(run) : Optional.empty();
    }

    /**
     * The times a suite is cut by.
     *
     * @param times the time of each listed benchmark in a trial pair; empty to cut by count
     * @param timed how many of them the earlier run timed (the others take the median)
     */
    record Times(Map<String, Double> times, int timed) {}

    /**
     * Returns the time of each of {@code listed} in a trial pair (a trial of each side), from
     * {@code earlier}'s times of measured benchmarks, each added to the listed benchmark it belongs
     * to (see {@link Owners}); a listed benchmark without one takes the median of the others'
     * (a benchmark new since, or one the output gave no time). A time past
     * {@link Sharding#LONGEST_TIME} is none. Empty when none has a time: the suite is cut by count.
     */
    static Times times(Set<String> listed, Map<String, Double> earlier, Slicer slicer) {
        Map<String, Double> timed = new java.util.HashMap<>();
        Owners owners = new Owners(listed);
        // In the names' order: a sum in another order may differ in its last bit, and every shard
        // of a matrix, each its own process, must cut alike.
        for (Map.Entry<String, Double> e : new java.util.TreeMap<>(earlier).entrySet()) {
            Optional<String> owner = owners.of(slicer.asListed(e.getKey()));
            if (owner.isPresent() && e.getValue() > 0 && e.getValue() <= Sharding.LONGEST_TIME) {
                timed.merge(owner.get(), e.getValue(), Double::sum);
            }
        }
        if (timed.isEmpty()) {
            return new Times(Map.of(), 0);
        }
        double[] known = timed.values().stream()
                .mapToDouble(Double::doubleValue)
                .sorted()
                .toArray();
        double median = known.length % 2 == 1
                ? known[known.length / 2]
                : (known[known.length / 2 - 1] + known[known.length / 2]) / 2;
        Map<String, Double> times = new LinkedHashMap<>();
        for (String n : listed) {
            times.put(n, timed.getOrDefault(n, median));
        }
        return new Times(times, timed.size());
    }

    /**
     * Returns how {@code harness} is listed and filtered.
     *
     * @throws BadInputException when perfab does not know, saying how the workload tells it
     */
    static Slicer slicer(Workload.Harness harness) {
        return of(harness)
                .orElseThrow(() -> new BadInputException("--shard needs the benchmarks listed and"
                        + " filtered: perfab knows how for go test, Google Benchmark, pytest-benchmark and JMH run as their"
                        + " recipes run them; for this harness ("
                        + harness.format().id() + ": "
                        + String.join(" ", harness.argvs().get(0))
                        + ") give 'shard: {list: [...], filter: [...]}' under"
                        + " 'harness' in the workload (docs/workloads.md)"));
    }

    /**
     * Returns how {@code harness} is listed and filtered: as its workload's {@code harness.shard}
     * says, else as its tool does (see {@link HarnessTool#slicer}); empty when perfab does not know.
     */
    static Optional<Slicer> of(Workload.Harness harness) {
        if (!(harness.format() instanceof Workload.Read read)) {
            return Optional.empty();
        }
        List<String> argv = read.run();
        if (harness.shard().isPresent()) {
            Workload.Slicing s = harness.shard().get();
            return Optional.of(new Slicer() {
                @Override
                public List<String> list() {
                    return s.list();
                }

                @Override
                public List<String> names(List<String> lines) {
                    return lines.stream()
                            .map(String::strip)
                            .filter(l -> !l.isEmpty())
                            .toList();
                }

                @Override
                public List<String> run(List<String> slice, List<String> all) {
                    List<String> added = new ArrayList<>();
                    for (String a : s.filter()) {
                        if (a.contains(Workload.Slicing.NAME)) {
                            slice.forEach(n -> added.add(a.replace(Workload.Slicing.NAME, n)));
                        } else {
                            added.add(a.replace(Workload.Slicing.REGEX, HarnessTool.regex(slice)));
                        }
                    }
                    return HarnessTool.appended(argv, added);
                }
            });
        }
        return HarnessTools.of(read.format()).flatMap(t -> t.slicer(argv));
    }

    /** Returns the environment of a listing in {@code side}'s tree: what a trial there gets. */
    private static Map<String, String> env(SideDir side) {
        Map<String, String> env = new LinkedHashMap<>(side.isolation());
        env.put("PERFAB_HARNESS_DIR", side.tree().toString());
        env.put("PERFAB_TRIAL", "0");
        env.put("PERFAB_WARMUP", "1");
        env.put("PERFAB_RESULT", side.tmp().resolve("shard-list.json").toString());
        return env;
    }
}
