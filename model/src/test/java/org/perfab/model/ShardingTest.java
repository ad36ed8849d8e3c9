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
        long moved = names.stream().filter(n -> !before.get(n).equals(after.get(n))).count();
        assertTrue(moved <= 2 * 3, moved + " of 1,000 benchmarks moved when two were added");
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
