package org.perfab.baseline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Random;
import org.perfab.model.Snapshot;

/**
 * A corpus of snapshots built to the cases a ratchet baseline was decided on, with the noise of
 * shared CI runners: four tiers of 150-odd benchmarks, eight nightly snapshots each, a heavy tail
 * of noisy kernels, and a few benchmarks whose code moves across the window.
 *
 * <ul>
 *   <li>{@link #FAST}: on {@code ubuntu-latest}, a host uniformly 22.4% fast on every benchmark,
 *       anchor included: its ratios agree with its window, and it must be kept.
 *   <li>{@link #MIXED}: on {@code ubuntu-22.04}, a mixed capture: the anchor caught a 15% slow tail
 *       and nothing else did, so every ratio is 13% low while the raw values look ordinary; it
 *       must be rejected.
 *   <li>{@link #THIN}: a benchmark in the newest snapshot of each tier only.
 *   <li>{@link #MOVING_N}: a benchmark whose iteration count moves fourfold across the window.
 *   <li>Benchmarks under two exclusion prefixes, one a prefix of the other ({@link #SUITE} and
 *       {@link #SUITE_COMPILE}).
 *   <li>Files whose names are not a snapshot's, and one named arm64 that holds an amd64 profile.
 *   <li>{@code macos-14} on arm64 with an Apple M3, and {@code ubuntu-24.04-arm}: two arm64 tiers
 *       beside the two amd64 ones.
 * </ul>
 *
 * <p>Also control snapshots (six of one build per tier, for {@code perfab baseline floor}) and
 * tonight's snapshots to check, one run of {@code ubuntu-latest} five ways: as it was
 * ({@code clean.json}), with {@link #REGRESSED} 12% slower, on a host 25% faster or 30% slower
 * throughout, and with its anchor alone caught 20% slow (a mixed capture).
 */
public final class SyntheticSnapshots {
    /** The anchor benchmark. */
    public static final String ANCHOR = "Anchor/Loop";
    /** The uniformly fast snapshot of the history. */
    public static final String FAST = "2026-08-09-a588a69d2759-ubuntu-latest.json";
    /** The mixed capture of the history. */
    public static final String MIXED = "2026-08-09-5d1e0b7c3a91-ubuntu-22-04.json";
    /** The benchmark seen in one snapshot of each window only. */
    public static final String THIN = "Parse/NewFeature";
    /** The benchmark whose iteration count moves across the window. */
    public static final String MOVING_N = "Cache/Warm";
    /** The benchmark tonight's regressed snapshot is 12% slower on. */
    public static final String REGRESSED = "Encode/Json/512";
    /** An exclusion prefix. */
    public static final String SUITE = "ClojureTestSuite";
    /** An exclusion prefix that {@link #SUITE} is a prefix of. */
    public static final String SUITE_COMPILE = "ClojureTestSuiteCompileAndRun";
    /** The tiers. */
    public static final List<String> MACHINES =
            List.of("ubuntu-latest", "ubuntu-22.04", "ubuntu-24.04-arm", "macos-14");
    /** The file whose name says arm64 and whose content is amd64. */
    public static final String MISNAMED = "2026-08-08-77aa01c3e5f2-ubuntu-latest-arm64.json";

    private static final int SNAPSHOTS = 8;
    private static final LocalDate FIRST = LocalDate.of(2026, 8, 3);

    private SyntheticSnapshots() {}

    /** One benchmark's nature: its cost, its noise, and whether its code moves. */
    private record Bench(String name, double cost, double sigma, double movePerNight) {}

    /**
     * Writes the corpus: {@code dir/history} to seed from, {@code dir/control} to measure the floor
     * on, {@code dir/tonight} to check.
     */
    public static void write(Path dir, long seed) throws IOException {
        Random random = new Random(seed);
        List<Bench> benches = benches(random);
        Path history = Files.createDirectories(dir.resolve("history"));
        Path control = Files.createDirectories(dir.resolve("control"));
        Path tonight = Files.createDirectories(dir.resolve("tonight"));
        for (String machine : MACHINES) {
            String arch = machine.endsWith("-arm") || machine.startsWith("macos") ? "arm64" : "amd64";
            double tierSpeed = 0.7 + 0.6 * random.nextDouble();
            Path folder = Files.createDirectories(history.resolve(Snapshot.slug(machine)));
            Tier tier = new Tier(machine, arch, tierSpeed, benches);
            writeNights(folder, tier, random);
            writeControls(control, tier, random);
        }
        writeTonight(tonight, benches, random);
        writeStrays(history, benches, random);
    }

    /**
     * One machine of the corpus, as its snapshots share it.
     *
     * @param speed how fast the machine runs the benchmarks, as a factor of their cost
     */
    private record Tier(String machine, String arch, double speed, List<Bench> benches) {}

    /**
     * Writes the history of {@code tier} to {@code folder}: a snapshot a night, one of them from a
     * fast host and one of a mixed capture.
     */
    private static void writeNights(Path folder, Tier tier, Random random) throws IOException {
        String machine = tier.machine();
        for (int night = 0; night < SNAPSHOTS; night++) {
            LocalDate date = FIRST.plusDays(night);
            String commit = commit(random);
            double host = 1 + 0.06 * random.nextGaussian();
            boolean fast = machine.equals("ubuntu-latest") && night == SNAPSHOTS - 2;
            boolean mixed = machine.equals("ubuntu-22.04") && night == SNAPSHOTS - 2;
            if (fast) {
                host = 0.776;
                commit = "a588a69d2759" + commit.substring(12);
            }
            if (mixed) {
                commit = "5d1e0b7c3a91" + commit.substring(12);
            }
            Snapshot s = snapshot(
                    machine,
                    tier.arch(),
                    cpu(machine, night),
                    commit,
                    date,
                    tier.benches(),
                    tier.speed() * host,
                    night,
                    mixed ? 1.15 : 1,
                    random,
                    night == SNAPSHOTS - 1,
                    null,
                    1);
            write(folder.resolve(s.fileName()), s);
        }
    }

    /** Writes to {@code control} the snapshots of {@code tier} to measure the floor on. */
    private static void writeControls(Path control, Tier tier, Random random) throws IOException {
        String machine = tier.machine();
        for (int c = 0; c < 6; c++) {
            Snapshot s = snapshot(
                    machine,
                    tier.arch(),
                    cpu(machine, c),
                    "c0c0c0c0c0c0" + String.format(Locale.ROOT, "%028x", c),
                    FIRST.plusDays(20 + c),
                    tier.benches(),
                    tier.speed() * (1 + 0.06 * random.nextGaussian()),
                    SNAPSHOTS - 1,
                    1,
                    random,
                    false,
                    null,
                    1);
            write(control.resolve(s.fileName()), s);
        }
    }

    /**
     * Writes to {@code tonight} tonight's snapshots, all one run seen five ways, so that their checks
     * differ only by what was done to it.
     */
    private static void writeTonight(Path tonight, List<Bench> benches, Random random) throws IOException {
        String amd64 = "ubuntu-latest";
        Snapshot clean = snapshot(
                amd64,
                "amd64",
                cpu(amd64, 0),
                commit(random),
                FIRST.plusDays(SNAPSHOTS),
                benches,
                1,
                SNAPSHOTS - 1,
                1,
                random,
                true,
                null,
                1);
        write(tonight.resolve("clean.json"), clean);
        write(tonight.resolve("regressed.json"), scaled(clean, 1, REGRESSED, 1.12));
        write(tonight.resolve("fast-host.json"), scaled(clean, 0.75, null, 1));
        write(tonight.resolve("slow-host.json"), scaled(clean, 1.3, null, 1));
        write(tonight.resolve("mixed-capture.json"), scaled(clean, 1, ANCHOR, 1.2));
    }

    /** Writes to {@code history} files a corpus collects that are not snapshots, or are misnamed. */
    private static void writeStrays(Path history, List<Bench> benches, Random random) throws IOException {
        String amd64 = "ubuntu-latest";
        Path latest = history.resolve(Snapshot.slug(amd64));
        Files.writeString(latest.resolve("ubuntu-latest-baseline-old.json"), "{}\n", StandardCharsets.UTF_8);
        Files.writeString(latest.resolve("2026-07-30_ubuntu-latest.json"), "{}\n", StandardCharsets.UTF_8);
        Snapshot misnamed = snapshot(
                amd64,
                "amd64",
                cpu(amd64, 0),
                "77aa01c3e5f2" + commit(random).substring(12),
                LocalDate.of(2026, 8, 8),
                benches,
                1,
                3,
                1,
                random,
                false,
                null,
                1);
        write(history.resolve(MISNAMED), misnamed);
    }

    private static List<Bench> benches(Random random) {
        List<Bench> b = new ArrayList<>();
        b.add(new Bench(ANCHOR, 250_000, 0.01, 0));
        b.add(new Bench(THIN, 40_000, 0.02, 0));
        b.add(new Bench(MOVING_N, 2_000, 0.02, 0));
        b.add(new Bench(REGRESSED, 18_000, 0.015, 0));
        String[] families = {
            "Parse/Expr",
            "Encode/Json",
            "Decode/Proto",
            "Hash/Sha",
            "Sort/Ints",
            "Map/Insert",
            "Regex/Match",
            "Compress/Zstd",
            "Kernel/Lcs",
            "Kernel/Levenshtein"
        };
        for (String family : families) {
            for (int size : new int[] {8, 64, 512, 4096, 32768}) {
                if (family.equals("Encode/Json") && size == 512) {
                    continue;
                }
                boolean kernel = family.startsWith("Kernel");
                double u = random.nextDouble();
                double sigma = kernel ? 0.2 : u < 0.7 ? 0.012 : u < 0.85 ? 0.06 : 0.2;
                double move = random.nextDouble() < 0.1 ? 0.02 * (random.nextBoolean() ? 1 : -1) : 0;
                b.add(new Bench(
                        family + "/" + size,
                        Math.exp(Math.log(20) + random.nextDouble() * Math.log(5e5)),
                        sigma,
                        move));
            }
        }
        for (int i = 0; i < 40; i++) {
            double u = random.nextDouble();
            b.add(new Bench(
                    "Pipeline/Stage" + i,
                    Math.exp(Math.log(1e3) + random.nextDouble() * Math.log(1e4)),
                    u < 0.6 ? 0.012 : u < 0.85 ? 0.06 : 0.2,
                    0));
        }
        for (String s : List.of("Basic", "Macros")) {
            b.add(new Bench(SUITE + "/" + s, 5e6, 0.02, 0));
            b.add(new Bench(SUITE_COMPILE + "/" + s, 9e6, 0.02, 0));
        }
        return b;
    }

    private static Snapshot snapshot(
            String machine,
            String arch,
            String cpu,
            String commit,
            LocalDate date,
            List<Bench> benches,
            double host,
            int night,
            double anchorTail,
            Random random,
            boolean newest,
            String slower,
            double by) {
        List<Snapshot.Benchmark> list = new ArrayList<>();
        for (Bench b : benches) {
            if (b.name().equals(THIN) && !newest) {
                continue;
            }
            double noise = Math.exp(b.sigma() * random.nextGaussian());
            double cost = b.cost()
                    * host
                    * noise
                    * Math.pow(1 + b.movePerNight(), night)
                    * (b.name().equals(ANCHOR) ? anchorTail : 1)
                    * (b.name().equals(slower) ? by : 1);
            long n = b.name().equals(MOVING_N)
                    ? 250_000L << (night / 2)
                    : Math.max(1, Math.round(1e9 / (b.cost() * host) / 10) * 10);
            list.add(new Snapshot.Benchmark(b.name(), Math.round(cost * 100) / 100.0, "ns/op", OptionalLong.of(n)));
        }
        return new Snapshot(machine, arch, cpu, commit, date, list);
    }

    /** Returns {@code s} with every value times {@code host}, and {@code one}'s also times {@code by}. */
    private static Snapshot scaled(Snapshot s, double host, String one, double by) {
        List<Snapshot.Benchmark> list = s.benchmarks().stream()
                .map(b -> new Snapshot.Benchmark(
                        b.name(), b.value() * host * (b.name().equals(one) ? by : 1), b.unit(), b.iterations()))
                .toList();
        return new Snapshot(s.machine(), s.arch(), s.cpu(), s.commit(), s.date(), list);
    }

    private static String cpu(String machine, int night) {
        return switch (machine) {
            case "ubuntu-latest" ->
                night % 2 == 0 ? "AMD EPYC 7763 64-Core Processor" : "AMD EPYC 9V74 80-Core Processor";
            case "ubuntu-22.04" -> "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz";
            case "ubuntu-24.04-arm" -> "Neoverse-N2";
            default -> "Apple M3";
        };
    }

    private static String commit(Random random) {
        return String.format(Locale.ROOT, "%016x%016x%08x", random.nextLong(), random.nextLong(), random.nextInt());
    }

    private static void write(Path file, Snapshot s) throws IOException {
        Files.writeString(file, s.write(), StandardCharsets.UTF_8);
    }
}
