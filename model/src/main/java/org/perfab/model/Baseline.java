package org.perfab.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.perfab.stats.RatioSpace;

/**
 * A ratchet baseline ({@code perfab/baseline/v1}): per machine key and architecture (a tier), a
 * floor for each benchmark, kept in ratio space against one anchor benchmark. Every CI run is
 * checked against the floors of its tier; floors only ratchet down.
 *
 * @param anchor the benchmark every ratio is against
 * @param tiers the tiers, with how each was seeded
 * @param entries the floors: for each, {@code ratio == value / tier anchor value} holds
 * @param seeding what the last seeding left out and noticed
 * @param floors the measured noise floors under the budget, per tier ({@code perfab baseline floor})
 */
public record Baseline(String anchor, List<Tier> tiers, List<Entry> entries, Seeding seeding, List<Floor> floors) {
    /** The schema of a baseline file. */
    public static final String SCHEMA = "perfab/baseline/v1";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * A tier's identity: the machine key and the architecture. Both must match before a tier's
     * floors are replaced, so seeding one architecture never touches another's.
     *
     * @param machine the machine key
     * @param arch the architecture
     */
    public record Key(String machine, String arch) implements Comparable<Key> {
        public Key {
            Objects.requireNonNull(machine, "machine");
            Objects.requireNonNull(arch, "arch");
        }

        @Override
        public int compareTo(Key o) {
            return Comparator.comparing(Key::machine).thenComparing(Key::arch).compare(this, o);
        }

        @Override
        public String toString() {
            return machine + " (" + arch + ")";
        }
    }

    /**
     * One snapshot of a tier's seeding window.
     *
     * @param snapshot its file name
     * @param fate whether it counted
     * @param anchorDeviation its anchor against the window's median anchor, in percent (host speed)
     * @param offset how far its ratios sat off the rest of the window together, in percent; NaN
     *     when not judged
     */
    public record Member(String snapshot, RatioSpace.Fate fate, double anchorDeviation, double offset) {
        public Member {
            Objects.requireNonNull(snapshot, "snapshot");
            Objects.requireNonNull(fate, "fate");
        }
    }

    /**
     * How a tier was seeded.
     *
     * @param key the tier
     * @param anchorValue the median anchor value of the accepted snapshots
     * @param unit the anchor's unit
     * @param window the window's size as asked
     * @param members the snapshots of the window, oldest first
     * @param cpus the processor models of the accepted snapshots
     * @param date the newest accepted snapshot's day
     */
    public record Tier(
            Key key,
            double anchorValue,
            String unit,
            int window,
            List<Member> members,
            List<String> cpus,
            LocalDate date) {
        public Tier {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(unit, "unit");
            Objects.requireNonNull(date, "date");
            members = List.copyOf(members);
            cpus = List.copyOf(cpus);
            if (!(anchorValue > 0) || Double.isInfinite(anchorValue)) {
                throw new IllegalArgumentException(
                        "the anchor value of " + key + " must be above 0, got " + anchorValue);
            }
        }
    }

    /**
     * One floor.
     *
     * @param key its tier
     * @param benchmark the benchmark
     * @param value the floor in the benchmark's unit: its ratio times the tier's anchor value
     * @param unit the unit
     * @param ratio the floor as a ratio to the anchor
     * @param seen how many snapshots of the window had the benchmark
     * @param iterations the median of their iteration counts, when the tool gave them
     * @param setBy {@code seed}, or the snapshot an update ratcheted it down to
     */
    public record Entry(
            Key key,
            String benchmark,
            double value,
            String unit,
            double ratio,
            int seen,
            OptionalLong iterations,
            String setBy) {
        public Entry {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(benchmark, "benchmark");
            Objects.requireNonNull(unit, "unit");
            Objects.requireNonNull(iterations, "iterations");
            Objects.requireNonNull(setBy, "setBy");
            if (!(value > 0) || Double.isInfinite(value) || !(ratio > 0) || Double.isInfinite(ratio)) {
                throw new IllegalArgumentException(
                        "the floor of " + benchmark + " must be above 0, got " + value + " (ratio " + ratio + ")");
            }
        }
    }

    /**
     * A snapshot the seeding did not count.
     *
     * @param snapshot its file
     * @param key its tier
     * @param reason why, in words
     */
    public record Rejected(String snapshot, Key key, String reason) {}

    /**
     * Something the seeding left out: a file that is not a snapshot, or a benchmark seen too seldom.
     *
     * @param subject the file or the benchmark
     * @param key its tier, when known
     * @param reason why, in words
     */
    public record Skipped(String subject, Optional<Key> key, String reason) {}

    /** The kinds of {@link Note}. */
    public enum NoteKind {
        /** A benchmark's iteration count moved across the window: reported, not acted on. */
        ITERATIONS_MOVED,
        /** A snapshot's file name and content disagree (its architecture, machine, day or commit). */
        NAME_DISAGREES,
        /** A tier's coherence was not judged: too few benchmarks, or a tolerance below its noise. */
        NOT_JUDGED
    }

    /**
     * Something the seeding noticed and did not act on.
     *
     * @param kind what
     * @param subject the snapshot or the benchmark
     * @param key its tier, when known
     * @param detail the figures, in words
     */
    public record Note(NoteKind kind, String subject, Optional<Key> key, String detail) {}

    /**
     * What the last seeding left out and noticed.
     *
     * @param unparseable file names that are not a snapshot's ({@code DATE-SHA-MACHINESLUG.json})
     * @param rejected snapshots not counted
     * @param skipped files and benchmarks left out
     * @param notes what was noticed
     * @param liveExclusions the exclusion prefixes that matched a benchmark
     * @param staleExclusions the exclusion prefixes that matched none
     */
    public record Seeding(
            List<String> unparseable,
            List<Rejected> rejected,
            List<Skipped> skipped,
            List<Note> notes,
            List<String> liveExclusions,
            List<String> staleExclusions) {
        public Seeding {
            unparseable = List.copyOf(unparseable);
            rejected = List.copyOf(rejected);
            skipped = List.copyOf(skipped);
            notes = List.copyOf(notes);
            liveExclusions = List.copyOf(liveExclusions);
            staleExclusions = List.copyOf(staleExclusions);
        }

        /** The seeding that left out and noticed nothing. */
        public static Seeding empty() {
            return new Seeding(List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        }
    }

    /**
     * A tier's measured noise floor: how far the ratios of builds that cannot differ spread, in
     * percent, over every pair of its control snapshots and every benchmark but the anchor.
     *
     * @param key the tier
     * @param snapshots control snapshots
     * @param pairs pairs of them
     * @param values deviations measured
     * @param p50 their median
     * @param p90 the 90th percentile
     * @param p95 the 95th percentile: what {@code check --budget auto} multiplies
     * @param p99 the 99th percentile
     * @param max the largest
     * @param date the newest control snapshot's day
     * @param benchmarks each benchmark's own spread, in percent ({@code RatioSpace.ownSpread}: its 95th
     *     percentile for normal noise, from the median absolute deviation of its control ratios)
     */
    public record Floor(
            Key key,
            int snapshots,
            long pairs,
            long values,
            double p50,
            double p90,
            double p95,
            double p99,
            double max,
            LocalDate date,
            Map<String, Double> benchmarks) {
        public Floor {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(date, "date");
            benchmarks = Collections.unmodifiableMap(new TreeMap<>(benchmarks));
        }
    }

    public Baseline {
        Objects.requireNonNull(anchor, "anchor");
        Objects.requireNonNull(seeding, "seeding");
        tiers = tiers.stream().sorted(Comparator.comparing(Tier::key)).toList();
        entries = entries.stream()
                .sorted(Comparator.comparing(Entry::key).thenComparing(Entry::benchmark))
                .toList();
        floors = floors.stream().sorted(Comparator.comparing(Floor::key)).toList();
        Set<Key> keys = new HashSet<>();
        for (Tier t : tiers) {
            if (!keys.add(t.key())) {
                throw new IllegalArgumentException("tier " + t.key() + " is there twice");
            }
        }
        Set<List<Object>> seen = new HashSet<>();
        for (Entry e : entries) {
            if (!keys.contains(e.key())) {
                throw new IllegalArgumentException("the floor of " + e.benchmark() + " is of tier " + e.key()
                        + ", which the baseline does not have");
            }
            if (!seen.add(List.of(e.key(), e.benchmark()))) {
                throw new IllegalArgumentException("benchmark " + e.benchmark() + " of " + e.key() + " is there twice");
            }
        }
    }

    /** Returns the tier {@code key}, or empty. */
    public Optional<Tier> tier(Key key) {
        return tiers.stream().filter(t -> t.key().equals(key)).findFirst();
    }

    /** Returns the floors of tier {@code key}, by benchmark name. */
    public List<Entry> entries(Key key) {
        return entries.stream().filter(e -> e.key().equals(key)).toList();
    }

    /** Returns the noise floor measured for tier {@code key}, or empty. */
    public Optional<Floor> floor(Key key) {
        return floors.stream().filter(f -> f.key().equals(key)).findFirst();
    }

    /**
     * Returns this baseline with the tiers of {@code seeded} in place of its own tiers of the same
     * machine key and architecture (a tier matching on one of them only is kept), and what that
     * seeding left out and noticed; its measured floors are kept.
     *
     * @throws IllegalArgumentException when the anchors differ: the ratios would be of two spaces
     */
    public Baseline with(Baseline seeded) {
        if (!anchor.equals(seeded.anchor())) {
            throw new IllegalArgumentException("the baseline's anchor is " + anchor + ", not " + seeded.anchor()
                    + ": ratios against two anchors cannot share a file");
        }
        Set<Key> replaced = new HashSet<>();
        seeded.tiers().forEach(t -> replaced.add(t.key()));
        List<Tier> t = Stream.concat(tiers.stream().filter(x -> !replaced.contains(x.key())), seeded.tiers().stream())
                .toList();
        List<Entry> e = Stream.concat(
                        entries.stream().filter(x -> !replaced.contains(x.key())), seeded.entries().stream())
                .toList();
        return new Baseline(anchor, t, e, seeded.seeding(), floors);
    }

    /** Returns this baseline with {@code measured} in place of its floors of the same tiers. */
    public Baseline withFloors(List<Floor> measured) {
        Set<Key> replaced = new HashSet<>();
        measured.forEach(f -> replaced.add(f.key()));
        List<Floor> f = Stream.concat(floors.stream().filter(x -> !replaced.contains(x.key())), measured.stream())
                .toList();
        return new Baseline(anchor, tiers, entries, seeding, f);
    }

    /** Returns this baseline with {@code changed} in place of its entries of the same tier and benchmark. */
    public Baseline withEntries(List<Entry> changed) {
        Set<List<Object>> replaced = new HashSet<>();
        changed.forEach(e -> replaced.add(List.of(e.key(), e.benchmark())));
        List<Entry> e = new ArrayList<>(entries.stream()
                .filter(x -> !replaced.contains(List.of(x.key(), x.benchmark())))
                .toList());
        e.addAll(changed);
        return new Baseline(anchor, tiers, e, seeding, floors);
    }

    /** Returns the baseline's file text. */
    public String write() {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA).put("anchor", anchor);
        ArrayNode tierList = root.putArray("tiers");
        for (Tier t : tiers) {
            ObjectNode n = key(tierList.addObject(), t.key())
                    .put("anchorValue", t.anchorValue())
                    .put("unit", t.unit())
                    .put("window", t.window())
                    .put("date", t.date().toString());
            ArrayNode cpus = n.putArray("cpus");
            t.cpus().forEach(cpus::add);
            ArrayNode members = n.putArray("snapshots");
            for (Member m : t.members()) {
                ObjectNode o = members.addObject().put("snapshot", m.snapshot()).put("fate", kebab(m.fate()));
                TableJson.number(o, "anchorDeviation", m.anchorDeviation());
                TableJson.number(o, "offset", m.offset());
            }
        }
        ArrayNode entryList = root.putArray("entries");
        for (Entry e : entries) {
            ObjectNode n = key(entryList.addObject(), e.key())
                    .put("benchmark", e.benchmark())
                    .put("value", e.value())
                    .put("unit", e.unit())
                    .put("ratio", e.ratio())
                    .put("seen", e.seen());
            if (e.iterations().isPresent()) {
                n.put("iterations", e.iterations().getAsLong());
            } else {
                n.putNull("iterations");
            }
            n.put("setBy", e.setBy());
        }
        putSeeding(root);
        ArrayNode floorList = root.putArray("floors");
        for (Floor f : floors) {
            ObjectNode n = key(floorList.addObject(), f.key())
                    .put("snapshots", f.snapshots())
                    .put("pairs", f.pairs())
                    .put("values", f.values())
                    .put("p50", f.p50())
                    .put("p90", f.p90())
                    .put("p95", f.p95())
                    .put("p99", f.p99())
                    .put("max", f.max())
                    .put("date", f.date().toString());
            ObjectNode own = n.putObject("benchmarks");
            f.benchmarks().forEach(own::put);
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a baseline failed to serialise", e);
        }
    }

    /** Puts what seeding found into {@code root}: rejected snapshots, skipped files, notes, exclusions. */
    private void putSeeding(ObjectNode root) {
        ArrayNode rejected = root.putArray("rejected");
        seeding.rejected()
                .forEach(r -> key(rejected.addObject().put("snapshot", r.snapshot()), r.key())
                        .put("reason", r.reason()));
        ArrayNode unparseable = root.putArray("unparseable");
        seeding.unparseable().forEach(unparseable::add);
        ArrayNode skipped = root.putArray("skipped");
        seeding.skipped()
                .forEach(s -> optionalKey(skipped.addObject().put("subject", s.subject()), s.key())
                        .put("reason", s.reason()));
        ArrayNode notes = root.putArray("notes");
        seeding.notes()
                .forEach(s -> optionalKey(
                                notes.addObject().put("kind", kebab(s.kind())).put("subject", s.subject()), s.key())
                        .put("detail", s.detail()));
        ObjectNode exclusions = root.putObject("exclusions");
        ArrayNode live = exclusions.putArray("live");
        seeding.liveExclusions().forEach(live::add);
        ArrayNode stale = exclusions.putArray("stale");
        seeding.staleExclusions().forEach(stale::add);
    }

    /** Returns {@code value}'s name in lower case with dashes between its words. */
    private static String kebab(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static ObjectNode key(ObjectNode n, Key key) {
        return n.put("machine", key.machine()).put("arch", key.arch());
    }

    private static ObjectNode optionalKey(ObjectNode n, Optional<Key> key) {
        if (key.isPresent()) {
            return key(n, key.get());
        }
        return n.putNull("machine").putNull("arch");
    }

    /**
     * Returns the baseline {@code text} holds; {@code shown} names it in messages.
     *
     * @throws org.perfab.failure.BadInputException naming the field when it is not a baseline
     */
    public static Baseline read(String text, String shown) {
        StrictJson.Obj n = StrictJson.parse(text, SCHEMA, shown);
        String anchor = n.text("anchor");
        List<Tier> tiers = n.objects(
                "tiers",
                t -> t.check(
                        "anchorValue",
                        () -> new Tier(
                                key(t),
                                t.number("anchorValue"),
                                t.text("unit"),
                                t.integer("window", 1, 1000),
                                t.objects(
                                        "snapshots",
                                        m -> new Member(
                                                m.text("snapshot"),
                                                m.check("fate", () -> fate(m.text("fate"))),
                                                m.numberOrNaN("anchorDeviation"),
                                                m.numberOrNaN("offset"))),
                                t.texts("cpus"),
                                t.check("date", () -> LocalDate.parse(t.text("date"))))));
        List<Entry> entries = n.objects(
                "entries",
                e -> e.check(
                        "value",
                        () -> new Entry(
                                key(e),
                                e.text("benchmark"),
                                e.number("value"),
                                e.text("unit"),
                                e.number("ratio"),
                                e.integer("seen", 0, Integer.MAX_VALUE),
                                e.isNull("iterations")
                                        ? OptionalLong.empty()
                                        : OptionalLong.of(e.integer("iterations", 1L, Long.MAX_VALUE)),
                                e.text("setBy"))));
        List<Rejected> rejected =
                n.objects("rejected", r -> new Rejected(r.text("snapshot"), key(r), r.text("reason")));
        List<String> unparseable = n.texts("unparseable");
        List<Skipped> skipped =
                n.objects("skipped", s -> new Skipped(s.text("subject"), optionalKey(s), s.text("reason")));
        List<Note> notes = n.objects(
                "notes",
                s -> new Note(
                        s.check(
                                "kind",
                                () -> NoteKind.valueOf(
                                        s.text("kind").toUpperCase(Locale.ROOT).replace('-', '_'))),
                        s.text("subject"),
                        optionalKey(s),
                        s.text("detail")));
        StrictJson.Obj exclusions = n.object("exclusions");
        List<String> live = exclusions.texts("live");
        List<String> stale = exclusions.texts("stale");
        exclusions.done();
        List<Floor> floors = n.objects(
                "floors",
                f -> new Floor(
                        key(f),
                        f.integer("snapshots", 2, Integer.MAX_VALUE),
                        f.integer("pairs", 1L, Long.MAX_VALUE),
                        f.integer("values", 1L, Long.MAX_VALUE),
                        f.number("p50"),
                        f.number("p90"),
                        f.number("p95"),
                        f.number("p99"),
                        f.number("max"),
                        f.check("date", () -> LocalDate.parse(f.text("date"))),
                        numbers(f.object("benchmarks"))));
        Baseline b = n.check(
                "entries",
                () -> new Baseline(
                        anchor,
                        tiers,
                        entries,
                        new Seeding(unparseable, rejected, skipped, notes, live, stale),
                        floors));
        n.done();
        return b;
    }

    private static Map<String, Double> numbers(StrictJson.Obj n) {
        Map<String, Double> m = new TreeMap<>();
        n.names().forEach(name -> m.put(name, n.number(name)));
        n.done();
        return m;
    }

    private static Key key(StrictJson.Obj n) {
        return new Key(n.text("machine"), n.text("arch"));
    }

    private static Optional<Key> optionalKey(StrictJson.Obj n) {
        Optional<String> machine = n.textOrNull("machine");
        Optional<String> arch = n.textOrNull("arch");
        return machine.isPresent() && arch.isPresent()
                ? Optional.of(new Key(machine.get(), arch.get()))
                : Optional.empty();
    }

    private static RatioSpace.Fate fate(String text) {
        return RatioSpace.Fate.valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
}
