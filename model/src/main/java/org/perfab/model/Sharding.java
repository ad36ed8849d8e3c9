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
        /** No results of it were given: its benchmarks are not in the table. */
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
     * @param benchmarks the benchmarks of its slice, as the harness names them
     * @param trials how many of the run's trials are this shard's (they come in the order of the shards)
     */
    public record Part(int index, State state, String runner, int listed, String suite, List<String> benchmarks,
            int trials) {
        public Part {
            Objects.requireNonNull(suite, "suite");
            if (index < 1) {
                throw new IllegalArgumentException("a shard's index is from 1, got " + index);
            }
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(runner, "runner");
            benchmarks = List.copyOf(benchmarks);
            if (trials < 0 || listed < 0) {
                throw new IllegalArgumentException("negative counts of shard " + index);
            }
        }
    }

    /** Returns whether this is shards merged (every shard has a part), not one shard's own run. */
    public boolean merged() {
        return parts.size() == count && count > 1;
    }

    /** Returns the shards that were not measured to their end: missing, failed or interrupted, in order. */
    public List<Part> lacking() {
        List<Part> out = new ArrayList<>();
        for (Part p : parts) {
            if (p.state() != State.MEASURED) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * Returns the shard, from 1 to {@code count}, of each of {@code names}: the names in the order
     * of their hash (see {@link #hash}), cut into {@code count} runs of equal length (to one). Every
     * shard of a matrix finds the same slices from the same names, without talking to the others;
     * the slices differ in size by one benchmark at most; and a benchmark added or removed moves
     * only the benchmarks at the cuts after it, at most one per cut, so a benchmark stays in its
     * shard while the suite grows, unless it sits at a cut.
     */
    public static Map<String, Integer> assign(Collection<String> names, int count) {
        List<String> ordered = new ArrayList<>(new TreeSet<>(names));
        ordered.sort(Comparator.comparingLong((String n) -> hash(n)).thenComparing(Comparator.naturalOrder()));
        Map<String, Integer> shard = new LinkedHashMap<>();
        for (int i = 0; i < ordered.size(); i++) {
            shard.put(ordered.get(i), (int) ((long) i * count / ordered.size()) + 1);
        }
        return shard;
    }

    /**
     * Returns the digest of a suite of {@code names}: the first 16 hex digits of the SHA-256 of the
     * names, sorted, a line each. Two shards that listed other suites cut them elsewhere.
     */
    public static String suite(Collection<String> names) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            for (String n : new TreeSet<>(names)) {
                sha.update((n + "\n").getBytes(StandardCharsets.UTF_8));
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
                throw new IllegalArgumentException("a shard is K/N with 1 <= K <= N <= " + MAX_SHARDS + ", not "
                        + index + "/" + count);
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
