package org.perfab.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * How a run's benchmarks were split among shards: each shard a same-runner A/B of its own slice of
 * the suite (both sides, their trials taking turns, on one runner), and the shards of one A/B
 * merged into one table. A benchmark's shard comes from a hash of its name, so it stays in its shard
 * while the suite grows (see {@link #assign}).
 *
 * @param count how many shards the suite was split into, from 1
 * @param parts the shards this run holds, by index: one for the results of a shard's own run; every
 *     one of {@code count} for shards merged, those without results {@link State#MISSING}
 */
public record Sharding(int count, List<Part> parts) {
    /** The most shards a suite is split into: far past a matrix's jobs, and still a number a typo cannot hurt. */
    public static final int MAX_SHARDS = 256;

    public Sharding {
        if (count < 1 || count > MAX_SHARDS) {
            throw new IllegalArgumentException("a suite is split into 1 to " + MAX_SHARDS + " shards, not " + count);
        }
        parts = List.copyOf(parts);
        if (parts.size() != 1 && parts.size() != count) {
            throw new IllegalArgumentException(parts.size() + " parts of " + count + " shards: one shard's, or all");
        }
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            if (p.index() > count || (i > 0 && p.index() <= parts.get(i - 1).index())) {
                throw new IllegalArgumentException("shard " + p.index() + " of " + count + " out of order");
            }
        }
    }

    /** How a shard's run ended, as the merge found it. */
    public enum State {
        /** It ran to its end. */
        MEASURED("measured"),
        /** It was stopped before its last trial: what it measured is here, its verdicts may lack trials. */
        INTERRUPTED("interrupted"),
        /** Every counted trial of a side failed: its benchmarks have no verdict. */
        FAILED("failed"),
        /** Its results file was given and did not read (cut short, or not a results file). */
        UNREADABLE("unreadable"),
        /** No results of it were given. */
        MISSING("missing");

        private final String id;

        State(String id) {
            this.id = id;
        }

        /** The name results files give it. */
        public String id() {
            return id;
        }

        /** Returns the state named {@code id}. */
        public static State of(String id) {
            for (State s : values()) {
                if (s.id.equals(id)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("not a shard's state: '" + id + "'");
        }
    }

    /**
     * One shard.
     *
     * @param index its number, from 1 to the count
     * @param state how its run ended
     * @param runner the machine that measured it: the CI runner's name, else its CPU; empty when missing
     * @param listed how many benchmarks the harness listed, in every shard
     * @param suite what the harness listed: a digest of every name (see {@link #suite}); every shard
     *     of one A/B lists the same suite, or their slices do not fit together
     * @param cut how the suite was cut: {@link #BY_COUNT}, or {@code time:DIGEST} when by the
     *     benchmarks' times in an earlier run (see {@link #cut}); every shard of one A/B cuts alike, or
     *     their slices do not fit together
     * @param benchmarks the benchmarks of its slice, as the harness names them; of a shard merged
     *     without results, those the other shards' listings place in it (empty when none recorded one)
     * @param trials how many of the run's trials are this shard's (they come in the order of the shards)
     * @param listing every benchmark the harness listed, each once, sorted: {@code listed} of them,
     *     whose digest is {@code suite}; empty where the file does not record it (files written before
     *     perfab recorded it, and the parts of shards merged)
     */
    public record Part(
            int index,
            State state,
            String runner,
            int listed,
            String suite,
            String cut,
            List<String> benchmarks,
            int trials,
            List<String> listing) {
        /** A shard whose results do not record the suite's listing. */
        public Part(
                int index,
                State state,
                String runner,
                int listed,
                String suite,
                String cut,
                List<String> benchmarks,
                int trials) {
            this(index, state, runner, listed, suite, cut, benchmarks, trials, List.of());
        }

        public Part {
            listing = List.copyOf(listing);
            Objects.requireNonNull(suite, "suite");
            Objects.requireNonNull(cut, "cut");
            if (index < 1) {
                throw new IllegalArgumentException("a shard's index is from 1, got " + index);
            }
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(runner, "runner");
            benchmarks = List.copyOf(benchmarks);
            if (trials < 0 || listed < 0) {
                throw new IllegalArgumentException("negative counts of shard " + index);
            }
            if (new java.util.HashSet<>(benchmarks).size() != benchmarks.size()) {
                throw new IllegalArgumentException("shard " + index + " names a benchmark of its own twice");
            }
            if (benchmarks.size() > listed) {
                throw new IllegalArgumentException("shard " + index + " has " + benchmarks.size() + " benchmarks of its"
                        + " own, more than the " + listed + " its harness listed");
            }
            if (!listing.isEmpty()) {
                if (listing.size() != listed || !listing.equals(new ArrayList<>(new TreeSet<>(listing)))) {
                    throw new IllegalArgumentException("shard " + index + " says its harness listed " + listed
                            + " benchmarks, and its listing holds " + listing.size()
                            + (listing.size() == listed ? ", not each once in order" : ""));
                }
                if (!Sharding.suite(listing).equals(suite)) {
                    throw new IllegalArgumentException(
                            "shard " + index + "'s listing is not the suite " + suite + " it says its harness listed");
                }
                java.util.Set<String> all = new java.util.HashSet<>(listing);
                for (String b : benchmarks) {
                    if (!all.contains(b)) {
                        throw new IllegalArgumentException("shard " + index + " names '" + b + "' as its own, which"
                                + " its harness did not list");
                    }
                }
            }
        }
    }

    /** Returns whether this is shards merged (every shard has a part), not one shard's own run. */
    public boolean merged() {
        return parts.size() == count && count > 1;
    }

    /** Returns the shards that were not measured to their end: missing, unreadable, failed or interrupted, in order. */
    public List<Part> lacking() {
        List<Part> out = new ArrayList<>();
        for (Part p : parts) {
            if (p.state() != State.MEASURED) {
                out.add(p);
            }
        }
        return out;
    }

    /** How a suite cut by count says so in {@link Part#cut}. */
    public static final String BY_COUNT = "count";

    /**
     * Returns the shard, from 1 to {@code count}, of each of {@code names}, cut by count: the names
     * in the order of their hash (see {@link #hash}), cut into {@code count} runs of equal length
     * (to one). Every shard of a matrix finds the same slices from the same names, without talking
     * to the others; the slices differ in size by one benchmark at most; and a benchmark added or
     * removed moves only the benchmarks at the cuts after it, at most one per cut, so a benchmark
     * stays in its shard while the suite grows, unless it sits at a cut.
     */
    public static Map<String, Integer> assign(Collection<String> names, int count) {
        List<String> ordered = ordered(names);
        Map<String, Integer> shard = new LinkedHashMap<>();
        for (int i = 0; i < ordered.size(); i++) {
            shard.put(ordered.get(i), (int) ((long) i * count / ordered.size()) + 1);
        }
        return shard;
    }

    /** Returns {@code names}, each once, in the order of their hash, then of the names themselves. */
    private static List<String> ordered(Collection<String> names) {
        List<String> ordered = new ArrayList<>(new TreeSet<>(names));
        ordered.sort(Comparator.comparingLong((String n) -> hash(n)).thenComparing(Comparator.naturalOrder()));
        return ordered;
    }

    /**
     * Returns the shard, from 1 to {@code count}, of each benchmark of {@code times} (its time, more
     * than 0): the names in the order of their hash (see {@link #hash}), laid end to end by their
     * times and cut into {@code count} runs of equal time, each benchmark in the run that holds its
     * middle. Every shard of a matrix finds the same slices from the same names and times, without
     * talking to the others; a slice's time is within one benchmark's of the suite's over
     * {@code count}. A benchmark added or removed moves each cut by its share of the time: a light
     * one moves the benchmarks at the cuts, a heavy one more.
     *
     * @throws IllegalArgumentException when a time is not a finite number above 0
     */
    public static Map<String, Integer> assign(Map<String, Double> times, int count) {
        List<String> ordered = ordered(times.keySet());
        double total = 0;
        for (String n : ordered) {
            double t = times.get(n);
            if (!(t > 0) || Double.isInfinite(t)) {
                throw new IllegalArgumentException(
                        "benchmark '" + n + "' has time " + t + ": a cut needs finite times above 0");
            }
            total += t;
        }
        Map<String, Integer> shard = new LinkedHashMap<>();
        double before = 0;
        for (String n : ordered) {
            double t = times.get(n);
            // Where its middle falls, in shards: (before + t/2) / total * count, halves kept whole.
            long at = (long) Math.floor((2 * before + t) * count / (2 * total));
            shard.put(n, (int) Math.min(count - 1, Math.max(0, at)) + 1);
            before += t;
        }
        return shard;
    }

    /**
     * The longest a benchmark's time may be, in seconds (a year): a suite of a million such still
     * sums to a finite time.
     */
    public static final double LONGEST_TIME = 365 * 86400.0;

    /**
     * Returns how a cut by {@code times} is named in {@link Part#cut}: {@code time:} and the first 16
     * hex digits of the SHA-256 of the names, sorted, each with its time. Shards cut by other times
     * cut the suite elsewhere, and their slices do not fit together.
     */
    public static String cut(Map<String, Double> times) {
        StringBuilder lines = new StringBuilder();
        for (Map.Entry<String, Double> e : new java.util.TreeMap<>(times).entrySet()) {
            // The value's bits, not its decimal form, which one Java prints otherwise than another.
            lines.append(e.getKey())
                    .append('\t')
                    .append(Long.toHexString(Double.doubleToLongBits(e.getValue())))
                    .append('\n');
        }
        return "time:" + digest(List.of(lines.toString()));
    }

    /**
     * Returns the digest of a suite of {@code names}: the first 16 hex digits of the SHA-256 of the
     * names, sorted, a line each. Two shards that listed other suites cut them elsewhere.
     */
    public static String suite(Collection<String> names) {
        List<String> lines = new ArrayList<>();
        for (String n : new TreeSet<>(names)) {
            lines.add(n + "\n");
        }
        return digest(lines);
    }

    /** Returns the first 16 hex digits of the SHA-256 of {@code parts}, one after another, in UTF-8. */
    private static String digest(List<String> parts) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            for (String p : parts) {
                sha.update(p.getBytes(StandardCharsets.UTF_8));
            }
            return java.util.HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Returns the 64-bit FNV-1a hash of {@code name}'s UTF-8 bytes, as an unsigned number's bits:
     * where a benchmark falls among the others, whatever their names are alike.
     */
    static long hash(String name) {
        long h = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        // Unsigned order, as a signed comparison sees it.
        return h ^ Long.MIN_VALUE;
    }

    /**
     * One shard of a suite split into {@code count}.
     *
     * @param index which, from 1
     * @param count of how many
     */
    public record Shard(int index, int count) {
        public Shard {
            if (count < 1 || count > MAX_SHARDS || index < 1 || index > count) {
                throw new IllegalArgumentException(
                        "a shard is K/N with 1 <= K <= N <= " + MAX_SHARDS + ", not " + index + "/" + count);
            }
        }

        @Override
        public String toString() {
            return index + "/" + count;
        }
    }

    /**
     * Returns {@code K/N} parsed: shard K of N.
     *
     * @throws IllegalArgumentException when it is not two numbers with 1 &le; K &le; N &le; {@link #MAX_SHARDS}
     */
    public static Shard parse(String text) {
        String[] kn = text.trim().split("/", -1);
        if (kn.length != 2 || !kn[0].matches("[0-9]{1,4}") || !kn[1].matches("[0-9]{1,4}")) {
            throw new IllegalArgumentException("a shard is K/N (the K-th of N, e.g. 2/4), not '" + text + "'");
        }
        return new Shard(Integer.parseInt(kn[0]), Integer.parseInt(kn[1]));
    }
}
