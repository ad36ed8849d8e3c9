package org.perfab.model;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a reader must know about a whole run or comparison, as data: what kind of thing happened,
 * what it is about (cells, trials, files, builds), and its figures. Renderers word it, escape it
 * and bound it; nothing here is prose.
 *
 * @param kind what happened
 * @param count how many things it is about in all (trials, cells, files); {@code subjects} holds
 *     the first {@link #MAX_SUBJECTS} of them
 * @param subjects what it is about, in the order found: at most {@link #MAX_SUBJECTS}, each at most
 *     {@link #MAX_SUBJECT_LENGTH} characters
 * @param figures its numbers, by name (see {@link Kind})
 */
public record Warning(Kind kind, int count, List<String> subjects, Map<String, Long> figures) {
    /** The most subjects a warning keeps; {@code count} says how many there were. */
    public static final int MAX_SUBJECTS = 20;
    /** The longest subject kept (it may quote a harness); longer ones are cut. */
    public static final int MAX_SUBJECT_LENGTH = 500;

    /** What a warning is about; each kind's subjects and figures are fixed. */
    public enum Kind {
        /** Both sides are one commit. Subjects: the commit. */
        AA_RUN("aa-run"),
        /**
         * Base and head have several merge-bases (a criss-cross merge): the baseline measured is
         * the first, and another would give another baseline. Subjects: the merge-bases, the one
         * measured first.
         */
        SEVERAL_MERGE_BASES("several-merge-bases"),
        /**
         * The head is a working tree, uncommitted changes included, snapshotted as a commit on top of
         * {@code HEAD} that no ref names: it exists only in the clone it was taken from. Subjects:
         * the commit {@code HEAD} was, the snapshot; figures: {@code files} (the files it changed).
         */
        UNCOMMITTED_HEAD("uncommitted-head"),
        /** The two commits have one source tree. Subjects: the tree. */
        SAME_SOURCES("same-sources"),
        /** A build of each side wrote byte-identical outputs. Subjects: the builds; figures: {@code files}. */
        IDENTICAL_BUILDS("identical-builds"),
        /** Every file that differs between the sides is a harness file the base took from the head. Subjects: the files. */
        HARNESS_IS_THE_CHANGE("harness-is-the-change"),
        /** Both sides' trials start the same programs, outside their trees. Subjects: the real paths. */
        SHARED_PROGRAMS("shared-programs"),
        /**
         * Submodules the clone has not checked out, which the workload does not need, were left out of
         * both sides' trees alike (an empty folder in their place). Subjects: their paths.
         */
        SUBMODULES_LEFT_OUT("submodules-left-out"),
        /**
         * Submodules whose commit differs between the sides: their code is part of the change.
         * Subjects: {@code PATH BASE..HEAD}, the commits abbreviated ({@code none} where a side has no
         * such submodule).
         */
        SUBMODULES_CHANGED("submodules-changed"),
        /**
         * The run's trials are so long that its looks could take more than a CI job's hour, and no
         * budget bounds them. Subjects: the harness's own options that shorten a trial; figures:
         * {@code pairSeconds} (a pair of trials), {@code mostSeconds} (the most left of the run when
         * its first trials priced it), {@code most} (the trials per side at its last look).
         */
        LONG_TRIALS("long-trials"),
        /** A cached build did not match its digest and was built again. Subjects: the entry, the side. */
        DAMAGED_CACHE("damaged-cache"),
        /**
         * Counts were taken from perfab's count cache, not counted in this run: an earlier run counted
         * the same tree, build, toolchain and workload on the same CPU model, and a count does not
         * depend on the load it ran beside. Subjects: the sides ({@code base}, {@code head build 1});
         * figures: {@code trials} (the trials that took counts from it), {@code counts} (the
         * benchmarks' counts taken, over those trials), {@code counted} (those counted in this run).
         */
        CACHED_COUNTS("cached-counts"),
        /** Trials left processes running, which were killed. Subjects: {@code SIDE TRIAL: PID COMMAND}. */
        LEFTOVER_PROCESSES("leftover-processes"),
        /**
         * Some trials' CPU time was counted in clock ticks of 10 ms, the others' by cgroups to the
         * microsecond: a cgroup could not be made or joined for those. Subjects: those trials;
         * figures: {@code ticks} (how many), {@code trials} (of how many told).
         */
        CPU_CLOCKS("cpu-clocks"),
        /**
         * Other processes kept the machine busy while the counted trials ran (see {@link Load}).
         * No subjects; figures: {@code othersMillicores} (other processes' busy cores, on average
         * over the trials' time, in thousandths of a core), {@code cores} (the machine's),
         * {@code runQueueMilli} (the mean run queue, in thousandths), {@code runQueueMax},
         * {@code stealPermille} (the hypervisor's share of the time, in thousandths) and
         * {@code trials} (the counted trials whose load is known).
         */
        BUSY_MACHINE("busy-machine"),
        /**
         * Trials a disturbance of the machine spoiled were set aside from every cell (see
         * {@link Disturbed}). Subjects: {@code SIDE TRIAL: HOW}; figures: {@code replaced} (the
         * replacement trials run), {@code most} (the most a side may get).
         */
        DISTURBED_TRIALS("disturbed-trials"),
        /** Trials failed. Subjects: {@code SIDE TRIAL: REASON}; figures: {@code trials} run in all. */
        FAILED_TRIALS("failed-trials"),
        /** A side has fewer counted trials than asked. Subjects: the side; figures: {@code measured}, {@code asked}, {@code interrupted} (1 or 0). */
        MISSING_TRIALS("missing-trials"),
        /**
         * A side was built several times without {@code build.perturb}, or with one that changed
         * nothing, or checked out several times with nothing to build. Subjects: the sides whose
         * builds are known to be the same ({@code base}, {@code head}): byte-identical outputs, or,
         * without a build step, both sides (identical checkouts); a side not named may still have
         * identical builds when its build wrote nothing perfab could compare. Figures:
         * {@code builds}, {@code perturbed} (1 or 0), {@code noBuildStep} (1 when the workload has
         * no build step; absent, so 0, in files written before perfab recorded it). See
         * {@link RunResults#oneBuildSides()}.
         */
        UNPERTURBED_BUILDS("unperturbed-builds"),
        /** Values of a cell in a unit that does not convert were left out. Subjects: cell, metric, unit, the cell's unit; figures: {@code values}. */
        UNCONVERTIBLE_UNITS("unconvertible-units"),
        /**
         * The run stopped at a look of adaptive trials with cells undecided, since the next look
         * would have taken its trials past {@code --budget}. Subjects: the undecided cells
         * ({@code NAME METRIC}); figures: {@code look} and {@code looks} (the look it stopped at, of
         * the most it could take), {@code trials} (per side, at that look), {@code more} (the
         * trials per side the next look adds), {@code benchmarks} (those the next look would run),
         * {@code budgetMillis}, {@code spentMillis} (the trials' time so far), {@code nextMillis}
         * (what the next look would have taken; absent when not known) and {@code enoughMillis} (a
         * budget that lets it run).
         */
        BUDGET_STOP("budget-stop"),
        /**
         * A results file given as a shard's did not read, and the shards that did were merged
         * without it. Subjects: the file, why it did not read; figures: {@code shard} (the shard
         * it said it was, 0 when it did not say) and {@code shards} (of how many).
         */
        UNREADABLE_SHARD("unreadable-shard");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        /** The name used in files. */
        public String id() {
            return id;
        }

        /**
         * Returns the kind named {@code id}.
         *
         * @throws IllegalArgumentException when there is none
         */
        public static Kind of(String id) {
            for (Kind k : values()) {
                if (k.id.equals(id)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown warning kind '" + id + "'");
        }
    }

    public Warning {
        Objects.requireNonNull(kind, "kind");
        subjects = subjects.stream()
                .limit(MAX_SUBJECTS)
                .map(s -> s.length() > MAX_SUBJECT_LENGTH ? s.substring(0, MAX_SUBJECT_LENGTH) + "..." : s)
                .toList();
        if (count < subjects.size()) {
            throw new IllegalArgumentException("a warning about " + count + " things cannot name " + subjects.size());
        }
        figures = Collections.unmodifiableMap(new TreeMap<>(figures));
    }

    /** Returns a warning about all of {@code subjects}, keeping the first {@link #MAX_SUBJECTS}. */
    public static Warning of(Kind kind, List<String> subjects, Map<String, Long> figures) {
        return new Warning(kind, subjects.size(), subjects, figures);
    }

    /** Returns a warning about {@code subjects} without figures. */
    public static Warning of(Kind kind, String... subjects) {
        return of(kind, List.of(subjects), Map.of());
    }

    /** Returns the figure named {@code name}, or 0 when there is none. */
    public long figure(String name) {
        return figures.getOrDefault(name, 0L);
    }
}
