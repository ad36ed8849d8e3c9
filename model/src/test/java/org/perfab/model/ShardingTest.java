package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShardingTest {
    private static List<String> suite(int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(String.format("BenchmarkPkg/Case%06d/size=%d", i, i % 7));
        }
        return names;
    }

    @Test
    void slicesAreEqualToOneBenchmarkWhateverTheNames() {
        for (int n : new int[] {1, 3, 8, 999, 2000}) {
            for (int count : new int[] {1, 2, 4, 7}) {
                int[] sizes = new int[count + 1];
                Sharding.assign(suite(n), count).values().forEach(k -> sizes[k]++);
                int most = 0;
                int least = Integer.MAX_VALUE;
                for (int k = 1; k <= count; k++) {
                    most = Math.max(most, sizes[k]);
                    least = Math.min(least, sizes[k]);
                }
                assertTrue(most - least <= 1, n + " benchmarks in " + count + " shards: " + most + " and " + least);
            }
        }
    }

    @Test
    void aBenchmarkKeepsItsShardWhileTheSuiteGrowsUnlessItSitsAtACut() {
        List<String> names = suite(1000);
        Map<String, Integer> before = Sharding.assign(names, 4);
        // The order names come in changes nothing.
        List<String> shuffled = new ArrayList<>(names);
        Collections.shuffle(shuffled, new java.util.Random(7));
        assertEquals(before, Map.copyOf(Sharding.assign(shuffled, 4)));
        List<String> grown = new ArrayList<>(names);
        grown.add("BenchmarkNew/size=3");
        grown.add("BenchmarkNewer");
        Map<String, Integer> after = Sharding.assign(grown, 4);
        long moved =
                names.stream().filter(n -> !before.get(n).equals(after.get(n))).count();
        assertTrue(moved <= 2 * 3, moved + " of 1,000 benchmarks moved when two were added");
    }

    /** Times of a suite of {@code n}: one benchmark in ten 30 times the others', and the rest spread. */
    private static Map<String, Double> times(List<String> names) {
        Map<String, Double> times = new java.util.LinkedHashMap<>();
        java.util.Random r = new java.util.Random(11);
        for (int i = 0; i < names.size(); i++) {
            times.put(names.get(i), (i % 10 == 0 ? 30.0 : 1.0) * (0.5 + r.nextDouble()));
        }
        return times;
    }

    private static double[] load(Map<String, Double> times, Map<String, Integer> shards, int count) {
        double[] load = new double[count + 1];
        shards.forEach((n, k) -> load[k] += times.get(n));
        return load;
    }

    @Test
    void slicesCutByTimeTakeEqualTimeToOneBenchmarkWhereByCountTheyDoNot() {
        List<String> names = suite(2000);
        Map<String, Double> times = times(names);
        double longest =
                times.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double total = times.values().stream().mapToDouble(Double::doubleValue).sum();
        for (int count : new int[] {2, 4, 7, 16}) {
            double[] byTime = load(times, Sharding.assign(times, count), count);
            for (int k = 1; k <= count; k++) {
                assertTrue(
                        Math.abs(byTime[k] - total / count) <= longest,
                        "shard " + k + " of " + count + " takes " + byTime[k] + " of " + total);
            }
        }
        // The same suite by count: the heavy benchmarks fall where their hash puts them.
        double[] byCount = load(times, Sharding.assign(names, 16), 16);
        double[] byTime = load(times, Sharding.assign(times, 16), 16);
        double most = java.util.Arrays.stream(byCount).max().orElseThrow();
        assertTrue(most > java.util.Arrays.stream(byTime).max().orElseThrow() + longest / 2, most + " by count");
    }

    @Test
    void aCutByTimeIsStableAndNamedByItsTimes() {
        List<String> names = suite(1000);
        Map<String, Double> times = times(names);
        Map<String, Integer> before = Sharding.assign(times, 4);
        Map<String, Double> grown = new java.util.HashMap<>(times);
        grown.put("BenchmarkNew/size=3", 2.0);
        Map<String, Integer> after = Sharding.assign(grown, 4);
        long moved =
                names.stream().filter(n -> !before.get(n).equals(after.get(n))).count();
        assertTrue(moved <= 3, moved + " of 1,000 benchmarks moved when one was added");
        // Every job of a matrix, given the same times in any order, names the same cut; other times, another.
        assertEquals(Sharding.cut(times), Sharding.cut(new java.util.TreeMap<>(times)));
        assertTrue(Sharding.cut(times).startsWith("time:"));
        assertTrue(!Sharding.cut(times).equals(Sharding.cut(grown)));
        // Only the times relative to each other matter.
        Map<String, Double> scaled = new java.util.HashMap<>();
        times.forEach((n, t) -> scaled.put(n, t * 0.3));
        assertEquals(before, Sharding.assign(scaled, 4));
        // A count cut is as it always was (shards of older results say "count" too): the first
        // i * N / n of the hash order. Three benchmarks in two shards: two, then one.
        List<String> three = List.of("a", "b", "c");
        List<String> byHash = new ArrayList<>(three);
        byHash.sort(java.util.Comparator.comparingLong(Sharding::hash));
        Map<String, Integer> cut = Sharding.assign(three, 2);
        assertEquals(List.of(1, 1, 2), byHash.stream().map(cut::get).toList());
        assertThrows(IllegalArgumentException.class, () -> Sharding.assign(Map.of("a", 0.0), 2));
    }

    @Test
    void aRunsTimesAreEachBenchmarksMeanOverItsCountedTrialsForBothSides() {
        var head = new RunResults.TrialRecord(0, Side.HEAD, 0, 0, false, RunResults.Status.OK, "", 1, "", List.of())
                .withSeconds(Map.of("A", 0.25, "B", 1.0));
        var base = new RunResults.TrialRecord(1, Side.BASE, 0, 0, false, RunResults.Status.OK, "", 1, "", List.of())
                .withSeconds(Map.of("A", 0.75));
        var warm = new RunResults.TrialRecord(2, Side.BASE, 0, 0, true, RunResults.Status.OK, "", 1, "", List.of())
                .withSeconds(Map.of("A", 100.0, "C", 1.0));
        Map<String, Double> times = RunResults.benchmarkTimes(List.of(head, base, warm));
        assertEquals(Map.of("A", 1.0, "B", 2.0, "C", 2.0), times, "C from its warm-up: no counted trial gave it");
        // A time past a year is none: a sum of a suite's stays finite, and the plan that keeps it reads back.
        var huge = new RunResults.TrialRecord(3, Side.HEAD, 0, 1, false, RunResults.Status.OK, "", 1, "", List.of())
                .withSeconds(Map.of("A", 1e308, "D", 1e308));
        assertEquals(Map.of("A", 1.0, "B", 2.0, "C", 2.0), RunResults.benchmarkTimes(List.of(head, base, warm, huge)));
    }

    @Test
    void aShardIsKOfN() {
        assertEquals(new Sharding.Shard(2, 4), Sharding.parse("2/4"));
        assertEquals("2/4", Sharding.parse(" 2/4 ").toString());
        for (String bad : List.of("0/4", "5/4", "2", "2/0", "a/b", "1/300", "-1/4", "1/4/2", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sharding.parse(bad), bad);
            assertTrue(e.getMessage().contains("K/N"), e.getMessage());
        }
    }
}
