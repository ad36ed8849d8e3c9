package org.perfab.baseline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.perfab.failure.BadInputException;
import org.perfab.model.Baseline;
import org.perfab.model.Exclusions;
import org.perfab.model.Snapshot;
import org.perfab.stats.PairSpreads;
import org.perfab.stats.RatioSpace;
import org.perfab.stats.Sample;

/**
 * A folder of snapshots, as a baseline is seeded from or a noise floor measured on: every
 * {@code *.json} file under it whose name is a snapshot's ({@code DATE-SHA-MACHINESLUG.json}) and
 * whose content is one, grouped into tiers by the machine key and architecture the content says.
 * A name that is not a snapshot's is skipped and counted; content that is not a snapshot is
 * skipped with its error; a name that disagrees with its content is noted, and the content wins.
 */
public final class Corpus {
    /** The largest snapshot file read. */
    static final long MAX_BYTES = 64L * 1024 * 1024;
    /**
     * How far a benchmark's iteration count may move across a window (max over min) before it is
     * noted. Go sizes {@code b.N} to the time a benchmark takes, so a host a fifth faster moves
     * every count a little; a count that doubles says the cost per operation, or the state the
     * iterations share, moved.
     */
    static final double ITERATIONS_NOTED = 2;

    /**
     * A snapshot of the folder.
     *
     * @param file its path below the folder
     * @param snapshot its content
     */
    public record Found(String file, Snapshot snapshot) {}

    private final Map<Baseline.Key, List<Found>> tiers;
    private final List<String> unparseable;
    private final List<Baseline.Skipped> skipped;
    private final List<Baseline.Note> notes;

    private Corpus(
            Map<Baseline.Key, List<Found>> tiers,
            List<String> unparseable,
            List<Baseline.Skipped> skipped,
            List<Baseline.Note> notes) {
        this.tiers = tiers;
        this.unparseable = unparseable;
        this.skipped = skipped;
        this.notes = notes;
    }

    /**
     * Returns the snapshots under {@code dir}; with {@code arch}, only those whose content is of that
     * architecture.
     *
     * @throws BadInputException when {@code dir} is not a folder perfab can read
     */
    public static Corpus read(Path dir, Optional<String> arch) {
        if (!Files.isDirectory(dir)) {
            throw new BadInputException(dir + ": " + (Files.exists(dir) ? "not a folder" : "no such folder"));
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir, 8)) {
            files = walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> p.getFileName().toString().endsWith(".json"))
                    .sorted()
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            throw new BadInputException(dir + ": cannot read: " + e.getMessage(), e);
        }
        Map<Baseline.Key, List<Found>> tiers = new TreeMap<>();
        List<String> unparseable = new ArrayList<>();
        List<Baseline.Skipped> skipped = new ArrayList<>();
        List<Baseline.Note> notes = new ArrayList<>();
        for (Path p : files) {
            String shown = dir.relativize(p).toString();
            String fileName = p.getFileName().toString();
            Optional<Snapshot.Name> name = Snapshot.parseName(fileName);
            if (name.isEmpty()) {
                unparseable.add(shown);
                continue;
            }
            Snapshot s;
            try {
                if (Files.size(p) > MAX_BYTES) {
                    skipped.add(new Baseline.Skipped(shown, Optional.empty(), "larger than 64 MiB"));
                    continue;
                }
                s = Snapshot.read(Files.readString(p, StandardCharsets.UTF_8), shown);
            } catch (IOException e) {
                skipped.add(new Baseline.Skipped(shown, Optional.empty(), "cannot read: " + e.getMessage()));
                continue;
            } catch (BadInputException e) {
                skipped.add(new Baseline.Skipped(shown, Optional.empty(), e.getMessage()));
                continue;
            }
            Baseline.Key key = new Baseline.Key(s.machine(), s.arch());
            disagreements(name.get(), s)
                    .forEach(d ->
                            notes.add(new Baseline.Note(Baseline.NoteKind.NAME_DISAGREES, shown, Optional.of(key), d)));
            if (arch.isPresent() && !arch.get().equals(s.arch())) {
                continue;
            }
            tiers.computeIfAbsent(key, k -> new ArrayList<>()).add(new Found(shown, s));
        }
        tiers.values()
                .forEach(l -> l.sort(
                        Comparator.comparing((Found f) -> f.snapshot().date()).thenComparing(Found::file)));
        return new Corpus(tiers, unparseable, skipped, notes);
    }

    private static List<String> disagreements(Snapshot.Name name, Snapshot s) {
        List<String> d = new ArrayList<>();
        Optional<String> named = name.arch();
        if (named.isPresent() && !named.get().equals(s.arch())) {
            d.add("its name says " + named.get() + ", its content " + s.arch() + ": it counts as " + s.arch());
        }
        if (!name.slug().equals(Snapshot.slug(s.machine()))) {
            d.add("its name's machine is '" + name.slug() + "', its content's '" + s.machine() + "': it counts as '"
                    + s.machine() + "'");
        }
        if (!name.date().equals(s.date())) {
            d.add("its name's day is " + name.date() + ", its content's " + s.date() + ": it counts as " + s.date());
        }
        if (!s.commit().isEmpty() && !s.commit().toLowerCase(Locale.ROOT).startsWith(name.commit())) {
            d.add("its name's commit is " + name.commit() + ", its content's " + s.commit());
        }
        return d;
    }

    /** Returns the tiers and their snapshots, each oldest first. */
    public Map<Baseline.Key, List<Found>> tiers() {
        return tiers;
    }

    /** Returns the files whose names are not a snapshot's. */
    public List<String> unparseable() {
        return unparseable;
    }

    /**
     * Returns the baseline seeded from the newest {@code window} snapshots of each tier (see
     * {@link RatioSpace#reduce}).
     *
     * @param anchor the benchmark every ratio is against
     * @param tolerance the coherence tolerance, in percent
     */
    public Baseline seed(String anchor, int window, double tolerance, Exclusions exclusions) {
        List<Baseline.Tier> seededTiers = new ArrayList<>();
        List<Baseline.Entry> entries = new ArrayList<>();
        List<Baseline.Rejected> rejected = new ArrayList<>();
        List<Baseline.Skipped> left = new ArrayList<>(skipped);
        List<Baseline.Note> noted = new ArrayList<>(notes);
        Set<String> names = new TreeSet<>();
        tiers.forEach((key, all) -> {
            List<Found> w = all.subList(Math.max(0, all.size() - window), all.size());
            RatioSpace.Reduction r = RatioSpace.reduce(values(w, exclusions, names), anchor, tolerance);
            unjudged(key, r, tolerance).ifPresent(noted::add);
            List<Baseline.Member> members = new ArrayList<>();
            List<Found> accepted = new ArrayList<>();
            for (int i = 0; i < w.size(); i++) {
                RatioSpace.Fit fit = r.fits().get(i);
                Found f = w.get(i);
                members.add(new Baseline.Member(f.file(), fit.fate(), fit.anchorDeviation(), fit.offset()));
                switch (fit.fate()) {
                    case ACCEPTED -> accepted.add(f);
                    case NO_ANCHOR ->
                        rejected.add(
                                new Baseline.Rejected(f.file(), key, "it has no benchmark " + anchor + ", the anchor"));
                    case INCOHERENT ->
                        rejected.add(new Baseline.Rejected(
                                f.file(),
                                key,
                                String.format(
                                        Locale.ROOT,
                                        "its ratios sit %+.1f%% off the rest of the window together (tolerance %s%%): the anchor"
                                                + " caught a tail the other benchmarks did not, or the other way round",
                                        fit.offset(),
                                        plain(tolerance))));
                    default -> throw new IllegalStateException("unknown fate " + fit.fate());
                }
            }
            if (accepted.isEmpty()) {
                left.add(new Baseline.Skipped(
                        key.toString(),
                        Optional.of(key),
                        "not seeded: no snapshot of its window of " + w.size() + " counted"));
                return;
            }
            seededTiers.add(tier(key, r.anchor(), anchor, window, members, accepted));
            r.ratios().forEach((name, reduced) -> entries.add(entry(key, name, reduced, r.anchor(), accepted, noted)));
            r.thin()
                    .forEach((name, seen) -> left.add(new Baseline.Skipped(
                            name,
                            Optional.of(key),
                            "seen in " + seen
                                    + " of the " + r.accepted()
                                    + " snapshots counted, under half: not seeded (check reports it as"
                                    + " new)")));
        });
        return new Baseline(
                anchor,
                seededTiers,
                entries,
                new Baseline.Seeding(
                        unparseable, rejected, left, noted, exclusions.live(names), exclusions.stale(names)),
                List.of());
    }

    /**
     * Returns the values of each snapshot of window {@code w}, but those {@code exclusions}
     * excludes; adds every benchmark's name the window holds to {@code names}, excluded or not.
     */
    private static List<Map<String, Double>> values(List<Found> w, Exclusions exclusions, Set<String> names) {
        List<Map<String, Double>> values = new ArrayList<>();
        for (Found f : w) {
            Map<String, Double> v = new LinkedHashMap<>();
            f.snapshot().values().forEach((n, x) -> {
                names.add(n);
                if (!exclusions.excludes(n)) {
                    v.put(n, x);
                }
            });
            values.add(v);
        }
        return values;
    }

    /**
     * Returns the seeded tier {@code key}: in the unit of benchmark {@code anchor} in its newest
     * {@code accepted} snapshot, with the CPUs of those snapshots in order and the newest's date.
     *
     * @param anchorValue the anchor's value in the window's reduction (see {@link RatioSpace.Reduction})
     */
    private static Baseline.Tier tier(
            Baseline.Key key,
            double anchorValue,
            String anchor,
            int window,
            List<Baseline.Member> members,
            List<Found> accepted) {
        Found newest = accepted.get(accepted.size() - 1);
        String unit = newest.snapshot().benchmark(anchor).orElseThrow().unit();
        return new Baseline.Tier(
                key,
                anchorValue,
                unit,
                window,
                members,
                accepted.stream()
                        .map(f -> f.snapshot().cpu())
                        .collect(Collectors.toCollection(LinkedHashSet::new))
                        .stream()
                        .toList(),
                newest.snapshot().date());
    }

    /**
     * Returns the note of a tier whose snapshots were not judged against each other, {@code r} its
     * window's reduction: too noisy for the coherence {@code tolerance} (in percent), or too few
     * benchmarks besides the anchor to tell. Empty where they were judged.
     */
    private static Optional<Baseline.Note> unjudged(Baseline.Key key, RatioSpace.Reduction r, double tolerance) {
        long withAnchor = r.fits().stream()
                .filter(f -> f.fate() != RatioSpace.Fate.NO_ANCHOR)
                .count();
        if (r.gate() == RatioSpace.Gate.TOO_NOISY) {
            long past = r.fits().stream()
                    .filter(f -> Math.abs(f.offset()) > tolerance)
                    .count();
            return Optional.of(new Baseline.Note(
                    Baseline.NoteKind.NOT_JUDGED,
                    key.toString(),
                    Optional.of(key),
                    past
                            + " of its " + withAnchor + " snapshots sat past the coherence tolerance of "
                            + plain(tolerance)
                            + "%, which is then below the tier's own noise: none was rejected"));
        }
        if (r.gate() == RatioSpace.Gate.TOO_FEW && withAnchor >= RatioSpace.MIN_GATED) {
            return Optional.of(new Baseline.Note(
                    Baseline.NoteKind.NOT_JUDGED,
                    key.toString(),
                    Optional.of(key),
                    "fewer"
                            + " than " + RatioSpace.MIN_SHARED
                            + " benchmarks besides the anchor: how far their ratios sit"
                            + " off together is their own noise, so no snapshot was judged"));
        }
        return Optional.empty();
    }

    /**
     * Returns the seeded entry of benchmark {@code name} in tier {@code key}: its {@code reduced}
     * ratio to the anchor, whose reduced value is {@code anchor}, the unit of its newest snapshot, and
     * the median of its iteration counts in the {@code accepted} snapshots. Notes in {@code noted}
     * an iteration count that moved across the window.
     */
    private static Baseline.Entry entry(
            Baseline.Key key,
            String name,
            RatioSpace.Reduced reduced,
            double anchor,
            List<Found> accepted,
            List<Baseline.Note> noted) {
        List<Snapshot.Benchmark> seen = accepted.stream()
                .map(f -> f.snapshot().benchmark(name))
                .flatMap(Optional::stream)
                .toList();
        List<Long> n = seen.stream()
                .map(Snapshot.Benchmark::iterations)
                .filter(OptionalLong::isPresent)
                .map(OptionalLong::getAsLong)
                .toList();
        OptionalLong iterations = n.isEmpty()
                ? OptionalLong.empty()
                : OptionalLong.of(Math.round(
                        Sample.of(n.stream().mapToDouble(Long::doubleValue).toArray())
                                .median()));
        if (n.size() > 1) {
            long min = n.stream().mapToLong(Long::longValue).min().orElseThrow();
            long max = n.stream().mapToLong(Long::longValue).max().orElseThrow();
            if (max >= min * ITERATIONS_NOTED) {
                noted.add(new Baseline.Note(
                        Baseline.NoteKind.ITERATIONS_MOVED,
                        name,
                        Optional.of(key),
                        String.format(
                                Locale.ROOT,
                                "its iteration count moved from %d to %d (x%.2g) across the"
                                        + " window: reported, not acted on",
                                min,
                                max,
                                (double) max / min)));
            }
        }
        return new Baseline.Entry(
                key,
                name,
                reduced.ratio() * anchor,
                seen.get(seen.size() - 1).unit(),
                reduced.ratio(),
                reduced.seen(),
                iterations,
                "seed");
    }

    /**
     * Returns each tier's noise floor, taking every snapshot of the folder as a control: a build
     * that cannot differ from the others (a comment-only edit, or the same commit again). Tiers
     * with fewer than two snapshots with the anchor have none.
     */
    public List<Baseline.Floor> floors(String anchor, Exclusions exclusions) {
        List<Baseline.Floor> floors = new ArrayList<>();
        tiers.forEach((key, all) -> {
            List<Map<String, Double>> ratios = new ArrayList<>();
            Found newest = null;
            for (Found f : all) {
                Map<String, Double> v = new LinkedHashMap<>(f.snapshot().values());
                v.keySet().removeIf(exclusions::excludes);
                Double a = v.get(anchor);
                if (a != null) {
                    ratios.add(RatioSpace.ratios(v, a));
                    newest = f;
                }
            }
            PairSpreads spread = PairSpreads.of(ratios, anchor);
            if (ratios.size() >= 2 && spread.size() > 0) {
                long n = ratios.size();
                Map<String, Double> own = RatioSpace.ownSpread(ratios, anchor);
                floors.add(new Baseline.Floor(
                        key,
                        ratios.size(),
                        n * (n - 1) / 2,
                        spread.size(),
                        spread.quantile(0.5),
                        spread.quantile(0.9),
                        spread.quantile(0.95),
                        spread.quantile(0.99),
                        spread.max(),
                        newest.snapshot().date(),
                        own));
            }
        });
        return floors;
    }

    private static String plain(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
