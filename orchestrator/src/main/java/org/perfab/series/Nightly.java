package org.perfab.series;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perfab.ab.MachineProbe;
import org.perfab.failure.BadInputException;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.model.Series;
import org.perfab.model.SeriesCheck;
import org.perfab.model.SeriesCuration;
import org.perfab.model.SeriesFile;
import org.perfab.model.SeriesImport;
import org.perfab.model.SeriesNoiseTable;
import org.perfab.model.SeriesReplay;
import org.perfab.stats.SeriesNoise;
import org.perfab.stats.SeriesRules;
import org.perfab.workload.Glob;
import org.perfab.workload.WorkloadLoader;

/**
 * A nightly series' core, one method per thing done to it: record tonight's ratios (on the main
 * branch only), fold another history in, check a run, replay the rules over the whole series, and
 * measure its noise; merging, replaying and measuring can first leave runs out ({@link Curation}).
 * Each takes what the command line gave and returns what happened, for a renderer to word. The
 * series file is written through {@code write}, which replaces a file whole (a reader never sees
 * half).
 */
public final class Nightly {
    /** The settings the decided rules were measured against, which a replay tries by default. */
    public static final List<String> SEED = List.of(
            "step=15,noise=0,drift=off",
            "step=30,noise=0,drift=off",
            "drift=off",
            "step=30,noise=4,drift=20",
            "step=20,noise=4,drift=20",
            "step=30,noise=4,drift=30");

    private Nightly() {}

    /** Where tonight's ratios come from. */
    public sealed interface Source permits AbResults, Ratios {}

    /**
     * A {@code results.json} of {@code perfab ab}: each cell's ratio to the cell its workload names
     * as {@code ratio_to}, or without a workload each cell's head/base ratio.
     *
     * @param file the results
     * @param workload the workload whose cells name their baselines; empty for head/base ratios
     */
    public record AbResults(Path file, Optional<Path> workload) implements Source {
        public AbResults {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(workload, "workload");
        }
    }

    /**
     * A CSV of ratios another tool wrote.
     *
     * @param file the CSV
     * @param keyColumns the columns of the key, joined by {@code /}; empty for {@code key}, else
     *     {@code Method}
     * @param ratioColumn the column of the ratio; empty for {@code ratio}, else {@code Ratio}
     */
    public record Ratios(Path file, List<String> keyColumns, Optional<String> ratioColumn) implements Source {
        public Ratios {
            Objects.requireNonNull(file, "file");
            keyColumns = List.copyOf(keyColumns);
            Objects.requireNonNull(ratioColumn, "ratioColumn");
        }
    }

    /**
     * Tonight's recording.
     *
     * @param series the series file (created when missing)
     * @param source where tonight's ratios come from
     * @param date the run's day
     * @param now the time of recording: the run's time when the source does not give one and it
     *     falls on the run's day (UTC); a run recorded on another day has no time
     * @param run the run's id; empty for {@code $GITHUB_RUN_ID}, else when the results started, else
     *     the date
     * @param commit the commit; empty for the results' head, else {@code $GITHUB_SHA}
     * @param base what the ratios are relative to; empty for the A/B's base commit with head/base
     *     ratios, else unknown (a ratio between two cells of one commit has no base commit)
     * @param cpu the processor model; empty for the results' machine, else this one's
     * @param branch the branch this run is on; empty for GitHub's {@code $GITHUB_HEAD_REF} or
     *     {@code $GITHUB_REF_NAME}, and none at all records
     * @param main the branch that records
     * @param rules the rules tonight's run is checked with
     * @param env the environment ({@code GITHUB_*}, and this machine's processor)
     */
    public record Recording(
            Path series,
            Source source,
            LocalDate date,
            Instant now,
            Optional<String> run,
            Optional<String> commit,
            Optional<String> base,
            Optional<String> cpu,
            Optional<String> branch,
            String main,
            SeriesRules.Options rules,
            Map<String, String> env) {
        public Recording {
            Objects.requireNonNull(series, "series");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(date, "date");
            Objects.requireNonNull(now, "now");
            Objects.requireNonNull(run, "run");
            Objects.requireNonNull(commit, "commit");
            Objects.requireNonNull(base, "base");
            Objects.requireNonNull(cpu, "cpu");
            Objects.requireNonNull(branch, "branch");
            Objects.requireNonNull(main, "main");
            Objects.requireNonNull(rules, "rules");
            env = Map.copyOf(env);
        }
    }

    /**
     * Tonight's ratios recorded, or checked only.
     *
     * @param skipped what the source left out and why, a line each
     * @param merged the series with tonight's ratios, and how many were added, already there or
     *     differed from the series' own
     * @param run tonight's run id
     * @param branch the branch the run is on; empty when none is known
     * @param recorded whether the series file was written: the run is on the main branch, or on none
     * @param check tonight's run checked against the readings before it
     */
    public record Recorded(
            List<String> skipped,
            SeriesFile.Merge merged,
            String run,
            String branch,
            boolean recorded,
            SeriesCheck check) {
        public Recorded {
            skipped = List.copyOf(skipped);
        }
    }

    /**
     * Adds tonight's ratios to the series when the run is on the main branch (idempotent per run
     * and key), and returns tonight's run checked against the series with them.
     *
     * @throws BadInputException when a file cannot be read, the source gives no ratio, or the series
     *     and tonight's run disagree on a run's date
     */
    public static Recorded record(Recording request, BiConsumer<Path, String> write) {
        Map<String, String> env = request.env();
        LocalDate day = request.date();
        String run = request.run().orElse(null);
        String commit = request.commit().orElse(null);
        String cpu = request.cpu().orElse(null);
        SeriesSources.Extract extract;
        if (request.source() instanceof AbResults ab) {
            RunResults results = ResultsJson.read(ab.file());
            SeriesSources.Stamp stamp = new SeriesSources.Stamp(
                    day,
                    first(run, env.get("GITHUB_RUN_ID"), results.startedAt().toString()),
                    first(commit, results.provenance().head().commit()),
                    first(cpu, results.machine().cpu()),
                    base(request.base(), results, ab.workload().isPresent()),
                    Optional.of(results.startedAt()));
            extract = ab.workload().isEmpty()
                    ? SeriesSources.abRatios(results, stamp)
                    : SeriesSources.baselineRatios(
                            results,
                            WorkloadLoader.parse(
                                    BadInputException.read(ab.workload().get()),
                                    ab.workload().get().toString()),
                            stamp);
        } else {
            Ratios csv = (Ratios) request.source();
            SeriesSources.Stamp stamp = new SeriesSources.Stamp(
                    day,
                    first(run, env.get("GITHUB_RUN_ID"), day.toString()),
                    first(commit, env.get("GITHUB_SHA"), ""),
                    first(cpu, MachineProbe.probe(env).cpu()),
                    request.base().orElse(""),
                    Optional.of(request.now().truncatedTo(ChronoUnit.SECONDS))
                            .filter(t -> LocalDate.ofInstant(t, ZoneOffset.UTC).equals(day)));
            extract = SeriesSources.csvRatios(csv.file(), csv.keyColumns(), csv.ratioColumn(), stamp);
        }
        if (extract.readings().isEmpty()) {
            throw new BadInputException("no ratio to record"
                    + (extract.skipped().isEmpty()
                            ? ""
                            : ": "
                                    + String.join(
                                            "; ",
                                            extract.skipped()
                                                    .subList(
                                                            0,
                                                            Math.min(
                                                                    3,
                                                                    extract.skipped()
                                                                            .size())))));
        }
        Path series = request.series();
        SeriesFile.Merge merged =
                add(read(series, true), SeriesFile.of(extract.readings()), series + " and tonight's run");
        String on = first(
                request.branch().orElse(null), blankToNull(env.get("GITHUB_HEAD_REF")), env.get("GITHUB_REF_NAME"), "");
        boolean records = on.isEmpty() || on.equals(request.main());
        if (records) {
            write.accept(series, merged.file().write());
        }
        String tonight = extract.readings().get(0).run();
        return new Recorded(
                extract.skipped(),
                merged,
                tonight,
                on,
                records,
                SeriesCheck.of(merged.file().series(), tonight, request.rules()));
    }

    /**
     * Folds the history in {@code from} into {@code series} without duplicates (a run and key the
     * series holds keeps its own ratio), leaving out of both the runs {@code curate} drops, writes
     * it, and returns what was added and dropped. A run dropped is removed from the series' own rows
     * too: folding a history in is when a maintainer cleans it. The history is read as one from
     * elsewhere ({@link SeriesFile#readHistory}), and a run of it kept may be dated the day after
     * {@code today} at the latest ({@link SeriesFile#fold}): a day's grace for a run dated by a
     * clock ahead of this one's, or a date given in another zone.
     *
     * @param today the day of the import, UTC
     * @throws BadInputException when a file cannot be read, the history holds what a series may not
     *     take in, the two disagree on a run's date, a run of the history is from the future, a run
     *     to drop is in neither, or the ref is unknown
     */
    // Note: refusing every run of the history dated after the series' own latest was tried. It
    // refuses what the nightly script folds in on purpose: the nights of its open pull request,
    // which come after main's latest.
    public static SeriesImport importHistory(
            Path series, Path from, Curation curate, LocalDate today, BiConsumer<Path, String> write) {
        SeriesFile own = read(series, true);
        SeriesFile other = SeriesFile.readHistory(BadInputException.read(from), from.toString());
        String both = series + " and " + from;
        SeriesCuration curation = curate.decide(add(own, other, both).file().series(), both);
        SeriesFile.Merge merged;
        try {
            merged = curation.apply(own).fold(curation.apply(other), today.plusDays(1));
        } catch (IllegalArgumentException e) {
            throw new BadInputException(from + ": " + e.getMessage());
        }
        write.accept(series, merged.file().write());
        return new SeriesImport(series.toString(), from.toString(), merged, curation);
    }

    /**
     * Returns the check of {@code run} (empty for the latest) of the series in {@code file}
     * against the readings before it.
     *
     * @throws BadInputException when the file cannot be read, holds no readings, or lacks the run
     */
    public static SeriesCheck check(Path file, Optional<String> run, SeriesRules.Options rules) {
        Series s = read(file, false).series();
        List<String> runs = s.runs();
        if (runs.isEmpty()) {
            throw new BadInputException(file + ": the series has no readings");
        }
        String which = run.orElse(runs.get(runs.size() - 1));
        if (!runs.contains(which)) {
            throw new BadInputException(
                    file + ": no run '" + which + "' (the latest is '" + runs.get(runs.size() - 1) + "')");
        }
        return SeriesCheck.of(s, which, rules);
    }

    /**
     * Returns the base of the ratios of {@code results}: {@code given} when there is one; else, for
     * head/base ratios, the commit the A/B measured as its baseline (the merge base of its base and
     * head, which is the base's own commit when the base is an ancestor, as a release tag of main
     * is). A ratio between two cells of one commit ({@code ratioTo}, or an A/A where both sides are
     * one commit) has no base commit: both of its terms measure tonight's commit, a new release
     * moves neither, so its base is empty (unknown), never tonight's commit, which would re-base
     * every night.
     */
    private static String base(Optional<String> given, RunResults results, boolean ratioTo) {
        if (given.isPresent()) {
            return given.get();
        }
        RunResults.Provenance p = results.provenance();
        if (ratioTo || p.aa()) {
            return "";
        }
        return first(p.mergeBase(), p.base() == null ? null : p.base().commit());
    }

    /**
     * Returns the base of the latest run of the series in {@code file}: what a nightly pins its
     * A/B's base to, so that the series stays on the base it was measured against. Empty when the
     * file is missing or holds no readings, or the latest run's bases are unknown; when its
     * readings name several, the one most of them name (the first named of a tie).
     *
     * @throws BadInputException when the file cannot be read
     */
    public static Optional<String> base(Path file) {
        Series s = read(file, true).series();
        List<String> runs = s.runs();
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Series.Reading r : s.of(runs.get(runs.size() - 1))) {
            if (!r.base().isEmpty()) {
                counts.merge(r.base(), 1, Integer::sum);
            }
        }
        Optional<String> most = Optional.empty();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (most.isEmpty() || e.getValue() > counts.get(most.get())) {
                most = Optional.of(e.getKey());
            }
        }
        return most;
    }

    /**
     * Returns the key to follow that {@code text} names, {@code KEY[=DATE]}: with a date, the day its
     * change appeared, so that an earlier catch shows as noise. A key whose text after its last
     * {@code =} is not a date is the whole text.
     */
    public static SeriesReplay.Watch watch(String text) {
        int eq = text.lastIndexOf('=');
        if (eq > 0) {
            try {
                return new SeriesReplay.Watch(
                        text.substring(0, eq), Optional.of(LocalDate.parse(text.substring(eq + 1))));
            } catch (DateTimeParseException e) {
                // the whole text is the key
            }
        }
        return new SeriesReplay.Watch(text, Optional.empty());
    }

    /**
     * A threshold of a replayed setting derived from the series' noise: {@code step=p95} is the 95th
     * percentile of every reading's deviation from the median of its key's previous {@code window}
     * readings, rounded to a whole percent.
     *
     * @param spec the setting as given
     * @param name the threshold ({@code step} or {@code drift})
     * @param percentile the percentile, from 0 to 100
     * @param window the setting's window, over which the deviations were measured
     * @param deviations how many deviations the percentile is of
     * @param value the percentile, in percent, before rounding
     * @param rounded the threshold used, in whole percent
     */
    public record Derived(
            String spec, String name, double percentile, int window, int deviations, double value, long rounded) {}

    /**
     * A replay, and how its settings were made.
     *
     * @param replay the rules replayed, with the runs left out when any were asked to be
     * @param derived the thresholds derived from the series' noise, in the order given
     */
    public record Replayed(SeriesReplay replay, List<Derived> derived) {
        public Replayed {
            Objects.requireNonNull(replay, "replay");
            derived = List.copyOf(derived);
        }
    }

    private static final Pattern PERCENTILE = Pattern.compile("p(\\d+(?:\\.\\d+)?)");

    /**
     * Returns the rules replayed run by run over the series in {@code file}, without the runs
     * {@code curate} drops, for each setting of {@code rules} (see {@link SeriesRules.Options#parse}),
     * following the keys of {@code watch}. A setting's {@code step} or {@code drift} may be
     * {@code pNN}: the NNth percentile of the curated series' deviations (see {@link Derived}).
     *
     * @throws BadInputException when the file cannot be read, lacks a key followed or a run to drop,
     *     the ref is unknown, or a setting is wrong
     */
    public static Replayed replay(Path file, List<String> rules, List<SeriesReplay.Watch> watch, Curation curate) {
        SeriesFile read = read(file, false);
        Series whole = read.series();
        SeriesCuration curation = curate.decide(whole, file.toString());
        Series s = curation.apply(read).series();
        for (SeriesReplay.Watch w : watch) {
            if (s.readings().stream().noneMatch(r -> r.key().equals(w.key()))) {
                throw new BadInputException(file + ": no key '" + w.key() + "'"
                        + (curation.any()
                                        && whole.readings().stream()
                                                .anyMatch(r -> r.key().equals(w.key()))
                                ? " in the runs kept"
                                : ""));
            }
        }
        List<Derived> derived = new ArrayList<>();
        List<SeriesRules.Options> options = new ArrayList<>();
        for (String spec : rules) {
            options.add(options(s, spec, derived));
        }
        SeriesReplay replay = SeriesReplay.of(s, options, watch);
        return new Replayed(curate.keepsAll() ? replay : replay.with(curation), derived);
    }

    /**
     * Returns the setting {@code spec} names, each {@code pNN} of its step or drift replaced by that
     * percentile of the deviations of {@code s}, and adds each such to {@code derived}.
     */
    private static SeriesRules.Options options(Series s, String spec, List<Derived> derived) {
        try {
            // The window is the setting's own: read it with each percentile a placeholder 0.
            int window = SeriesRules.Options.parse(
                            spec.replaceAll("(?<name>(?:^|,)\\s*(?:step|drift)\\s*=\\s*)p[0-9.]+", "${name}0"))
                    .window();
            StringBuilder resolved = new StringBuilder();
            for (String pair : spec.split(",", -1)) {
                String[] kv = pair.split("=", 2);
                String name = kv[0].trim();
                Matcher m = kv.length == 2 ? PERCENTILE.matcher(kv[1].trim()) : null;
                if (m != null && m.matches() && (name.equals("step") || name.equals("drift"))) {
                    double p = Double.parseDouble(m.group(1));
                    double[] deviations = SeriesNoiseTable.deviations(s, window);
                    if (deviations.length == 0) {
                        throw new IllegalArgumentException(name + "=" + kv[1].trim() + ": the series has no"
                                + " deviation to take a percentile of (each key needs two readings)");
                    }
                    double value = SeriesNoise.percentiles(deviations, List.of(p))[0] * 100;
                    long rounded = Math.round(value);
                    derived.add(new Derived(spec, name, p, window, deviations.length, value, rounded));
                    pair = name + "=" + rounded;
                }
                resolved.append(resolved.length() == 0 ? "" : ",").append(pair);
            }
            return SeriesRules.Options.parse(resolved.toString());
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--rules '" + spec + "': " + e.getMessage());
        }
    }

    /**
     * Returns the noise of the series in {@code file}, without the runs {@code curate} drops, each
     * reading measured against the median of its key's previous {@code window} readings, of the keys
     * any of {@code keys} matches (every key when none is given; see {@link Glob}).
     *
     * @throws BadInputException when the file cannot be read or holds no readings, a glob matches no
     *     key, a run to drop is not in it, or the ref is unknown
     */
    public static Measured noise(Path file, int window, List<String> keys, Curation curate) {
        if (window < 1 || window > 1000) {
            throw new BadInputException("--window must be from 1 to 1000, got " + window);
        }
        SeriesFile read = read(file, false);
        Series whole = read.series();
        if (whole.readings().isEmpty()) {
            throw new BadInputException(file + ": the series has no readings");
        }
        SeriesCuration curation = curate.decide(whole, file.toString());
        Series s = curation.apply(read).series();
        List<Pattern> globs = keys.stream().map(g -> Glob.compile(g, "/")).toList();
        for (int i = 0; i < keys.size(); i++) {
            Pattern g = globs.get(i);
            if (s.readings().stream().noneMatch(r -> g.matcher(r.key()).matches())) {
                throw new BadInputException("--key '" + keys.get(i) + "' matches no key of " + file
                        + (curation.any() ? " in the runs kept" : "") + " (* stops at /, ** does not)");
            }
        }
        return new Measured(
                SeriesNoiseTable.of(
                        s,
                        window,
                        key -> globs.isEmpty()
                                || globs.stream().anyMatch(g -> g.matcher(key).matches())),
                curation);
    }

    /**
     * A series' noise, and the runs left out before it was measured.
     *
     * @param table the noise
     * @param curation the runs left out
     */
    public record Measured(SeriesNoiseTable table, SeriesCuration curation) {
        public Measured {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(curation, "curation");
        }
    }

    /**
     * Returns the rules of {@link #SEED} replayed over a synthetic nightly series (see
     * {@link SyntheticSeries}), following its three regressions; the series is written to
     * {@code file} when one is given.
     *
     * @param seed the noise's seed
     */
    public static SeriesReplay demo(long seed, Optional<Path> file, BiConsumer<Path, String> write) {
        Series s = SyntheticSeries.make(seed);
        List<SeriesRules.Options> options =
                SEED.stream().map(SeriesRules.Options::parse).toList();
        List<SeriesReplay.Watch> watch = List.of(
                new SeriesReplay.Watch(SyntheticSeries.STEP, Optional.of(LocalDate.of(2026, 9, 1))),
                new SeriesReplay.Watch(SyntheticSeries.DRIFT, Optional.of(LocalDate.of(2026, 8, 24))),
                new SeriesReplay.Watch(SyntheticSeries.BIG_STEP, Optional.of(LocalDate.of(2026, 8, 26))));
        SeriesReplay replay = SeriesReplay.of(s, options, watch);
        file.ifPresent(f -> write.accept(f, SeriesFile.of(s.readings()).write()));
        return replay;
    }

    /** Returns the series file {@code file}; the empty one when the file does not exist and {@code missingOk}. */
    private static SeriesFile read(Path file, boolean missingOk) {
        if (missingOk && !Files.exists(file)) {
            return SeriesFile.empty();
        }
        return SeriesFile.read(BadInputException.read(file), file.toString());
    }

    /**
     * Returns {@code file} with {@code more} added.
     *
     * @throws BadInputException naming {@code what} when the two disagree on a run's date
     */
    private static SeriesFile.Merge add(SeriesFile file, SeriesFile more, String what) {
        try {
            return file.with(more);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(what + ": " + e.getMessage());
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static String first(String... candidates) {
        for (String c : candidates) {
            if (c != null && !c.isBlank()) {
                return c;
            }
        }
        return "";
    }
}
