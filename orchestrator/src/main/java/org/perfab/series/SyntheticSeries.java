package org.perfab.series;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.perfab.model.Series;

/**
 * A nightly ratio series built to the three cases the series rules were decided on, with the noise
 * of hosted runners: 23 runs from 2026-08-19 to 2026-09-13, 18 of them full, 120 keys. {@code
 * perfab series demo} writes it and replays the rules over it; the tests check the rules on it.
 *
 * <ul>
 *   <li>{@link #STEP}, like BPE against its unigram baseline: 0.97, one noisy night 18% up on
 *       08-24, then 1.72 from 09-01.
 *   <li>{@link #DRIFT}, like the code-point Indel at length 512: noisy for its first nights (one
 *       of them 32% down, on 08-22), then +21% over the ten days to 08-31, no night past the step
 *       rule.
 *   <li>{@link #BIG_STEP}, like the code-point Indel at length 20: 2.18, then 4.82 from 08-26.
 *   <li>On 09-13 a processor model the series has not seen, on which the {@link #SHORT} keys read
 *       40% higher.
 *   <li>The other keys: most quiet (a normal 0.8% spread), a third heavy-tailed like nanosecond
 *       kernels.
 * </ul>
 *
 * <p>Every run is against one release, {@link #BASE}, and starts at 02:00 UTC on its day.
 */
public final class SyntheticSeries {
    /** The key with a step on 09-01. */
    public static final String STEP = "BpeBenchmarks.Encode/unigram";
    /** The key that drifts +21% over ten days. */
    public static final String DRIFT = "IndelBenchmarks.CodePoint/512";
    /** The key with a step on 08-26. */
    public static final String BIG_STEP = "IndelBenchmarks.CodePoint/20";
    /** The keys that move on the new processor of 09-13. */
    public static final List<String> SHORT =
            List.of("LevenshteinBenchmarks.CodePoint/4", "LevenshteinBenchmarks.CodePoint/8");
    /** The base commit every ratio is relative to: the release the nightly A/B measures main against. */
    public static final String BASE = commit("release 2026-08-01");
    /** The processor model first seen on 09-13. */
    public static final String NEW_CPU = "Intel(R) Xeon(R) Platinum 8573C";

    private static final LocalDate FIRST = LocalDate.of(2026, 8, 19);
    private static final Set<LocalDate> NO_RUN =
            Set.of(LocalDate.of(2026, 8, 23), LocalDate.of(2026, 8, 30), LocalDate.of(2026, 9, 6));
    private static final Set<LocalDate> PARTIAL = Set.of(
            LocalDate.of(2026, 8, 27),
            LocalDate.of(2026, 9, 2),
            LocalDate.of(2026, 9, 4),
            LocalDate.of(2026, 9, 9),
            LocalDate.of(2026, 9, 11));
    private static final List<String> CPUS = List.of(
            "AMD EPYC 7763 64-Core Processor",
            "AMD EPYC 9V74 80-Core Processor",
            "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz",
            "Intel(R) Xeon(R) CPU E5-2673 v4 @ 2.30GHz",
            "Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz");
    private static final int OTHER_KEYS = 115;

    private SyntheticSeries() {}

    /** Returns the dates of the runs. */
    public static List<LocalDate> dates() {
        List<LocalDate> dates = new ArrayList<>();
        for (LocalDate d = FIRST; !d.isAfter(LocalDate.of(2026, 9, 13)); d = d.plusDays(1)) {
            if (!NO_RUN.contains(d)) {
                dates.add(d);
            }
        }
        return dates;
    }

    /** Returns the run id of {@code date}. */
    public static String run(LocalDate date) {
        return "nightly-" + date;
    }

    /** Returns the series, the same for a seed. */
    public static Series make(long seed) {
        Random random = new Random(seed);
        List<Series.Reading> readings = new ArrayList<>();
        double[] levels = new double[OTHER_KEYS];
        for (int k = 0; k < OTHER_KEYS; k++) {
            levels[k] = 0.5 + 4.5 * random.nextDouble();
        }
        int night = 0;
        for (LocalDate d : dates()) {
            String run = run(d);
            String commit = commit("main " + d);
            String cpu = d.equals(LocalDate.of(2026, 9, 13)) ? NEW_CPU : CPUS.get((night++ * 3) % CPUS.size());
            boolean partial = PARTIAL.contains(d);
            readings.add(reading(d, run, commit, cpu, STEP, step(d, random)));
            readings.add(reading(d, run, commit, cpu, DRIFT, drift(d, random)));
            readings.add(reading(
                    d,
                    run,
                    commit,
                    cpu,
                    BIG_STEP,
                    (d.isBefore(LocalDate.of(2026, 8, 26)) ? 2.18 : 4.82) * quiet(random)));
            for (String key : SHORT) {
                readings.add(reading(d, run, commit, cpu, key, (cpu.equals(NEW_CPU) ? 1.4 : 1.0) * quiet(random)));
            }
            for (int k = 0; k < OTHER_KEYS; k++) {
                boolean kernel = k % 3 == 0;
                double value = levels[k] * (kernel ? heavy(random) : quiet(random));
                if (!partial || k % 2 == 0) {
                    readings.add(reading(
                            d, run, commit, cpu, (kernel ? "LcsGateBenchmarks.Kernel/" : "Corpus.Encode/") + k, value));
                }
            }
        }
        return new Series(readings);
    }

    /** Returns a reading of the run of day {@code d}, against {@link #BASE}, started at 02:00 UTC. */
    /** Returns a commit id as git shows one: forty hex digits, here the SHA-1 of {@code what}. */
    private static String commit(String what) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(what.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-1", e);
        }
    }

    private static Series.Reading reading(
            LocalDate d, String run, String commit, String cpu, String key, double ratio) {
        return new Series.Reading(
                d,
                run,
                commit,
                cpu,
                key,
                ratio,
                BASE,
                Optional.of(d.atTime(2, 0).toInstant(ZoneOffset.UTC)));
    }

    private static double step(LocalDate d, Random random) {
        if (d.equals(LocalDate.of(2026, 8, 24))) {
            return 0.97 * 1.18;
        }
        return (d.isBefore(LocalDate.of(2026, 9, 1)) ? 0.97 : 1.72) * quiet(random);
    }

    private static double drift(LocalDate d, Random random) {
        int day = (int) (d.toEpochDay() - FIRST.toEpochDay());
        return switch (day) {
            case 0 -> 1.00;
            case 1 -> 1.19;
            case 2 -> 0.99;
            case 3 -> 0.68;
            default -> (1 + 0.21 * Math.min(1.0, (day - 2) / 8.0)) * (1 + 0.004 * random.nextGaussian());
        };
    }

    /** A quiet key's spread: normal, 0.8%. */
    private static double quiet(Random random) {
        return 1 + 0.008 * random.nextGaussian();
    }

    /**
     * A kernel's spread: a log-normal size (median 6%, a long tail) in either direction, so that
     * the series' deviations run from 1% at the median to about 90% at the 99th percentile.
     */
    private static double heavy(Random random) {
        double size = 0.06 * Math.exp(1.6 * random.nextGaussian());
        return random.nextBoolean() ? 1 + size : 1 / (1 + size);
    }
}
