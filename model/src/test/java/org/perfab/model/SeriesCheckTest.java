package org.perfab.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.perfab.model.Series.Reading;
import org.perfab.stats.SeriesRules;

class SeriesCheckTest {
    private static final SeriesRules.Options RULES = SeriesRules.Options.DEFAULT;
    private static final LocalDate DAY = LocalDate.of(2026, 9, 1);

    private static Reading reading(int night, String key, double ratio, String base) {
        return new Reading(DAY.plusDays(night), "n" + night, "c" + night, "Xeon", key, ratio, base, Optional.empty());
    }

    @Test
    void aChangedBaseIsAReBasingNeverAStep() {
        List<Reading> rs = new ArrayList<>();
        for (int night = 0; night < 6; night++) {
            rs.add(reading(night, "k", 1.0, "v1"));
            rs.add(reading(night, "quiet", 1.0, night == 3 ? "" : "v1"));
        }
        rs.add(reading(6, "k", 2.0, "v2"));
        rs.add(reading(6, "quiet", 1.0, "v1"));
        Series s = new Series(rs);
        SeriesCheck rebased = SeriesCheck.of(s, "n6", RULES);
        assertEquals(List.of(new SeriesCheck.Rebasing("k", "v1", "v2", 2.0, "c6")), rebased.rebasings());
        assertEquals(List.of(), rebased.movements(), "a doubled ratio against a new base is not a step");
        assertEquals(1, rebased.compared(), "the re-based key has no earlier reading of its base");
        assertEquals(List.of(), SeriesCheck.of(s, "n3", RULES).rebasings(), "an unknown base re-bases nothing");
        assertEquals(List.of(), SeriesCheck.of(s, "n4", RULES).rebasings(), "nor does the known one after it");
        // On the new base, the key is compared again once it has three readings of it, with them only.
        for (int night = 7; night < 10; night++) {
            rs.add(reading(night, "k", 2.0, night == 8 ? "" : "v2"));
        }
        rs.add(reading(10, "k", 2.0 * 1.31, "v2"));
        Series later = new Series(rs);
        assertEquals(
                List.of(false, false, false, true, true),
                List.of(6, 7, 8, 9, 10).stream()
                        .map(n -> SeriesCheck.verdicts(later, RULES)
                                .get("k")
                                .get(n)
                                .compared())
                        .toList());
        SeriesCheck step = SeriesCheck.of(later, "n10", RULES);
        assertEquals(1, step.movements().size());
        assertEquals(2.0, step.movements().get(0).move().reference(), "the reference is of the new base only");
        assertEquals(List.of(6, 7, 8, 9), step.movements().get(0).move().references());
        assertEquals("v2", step.movements().get(0).base());
    }

    /** A noisy series of a few keys over 60 nights, two runs on some dates, one re-basing. */
    private static List<Reading> noisy(long seed) {
        Random random = new Random(seed);
        List<Reading> rs = new ArrayList<>();
        for (int night = 0; night < 60; night++) {
            int runs = night % 7 == 3 ? 2 : 1;
            for (int run = 0; run < runs; run++) {
                String id = Long.toString(9_000_000_000L + night * 10L + (runs - run));
                for (int k = 0; k < 6; k++) {
                    double level = (1 + k) * (night >= 30 && k == 2 ? 1.8 : 1) * (1 + 0.01 * night * (k == 3 ? 1 : 0));
                    double noise = k % 2 == 0 ? 0.01 * random.nextGaussian() : 0.08 * Math.exp(random.nextGaussian());
                    rs.add(new Reading(
                            DAY.plusDays(night),
                            id,
                            "c" + id,
                            "cpu" + night % 3,
                            "key" + k,
                            level * (1 + noise),
                            night < 40 ? "v1" : "v2",
                            Optional.of(DAY.plusDays(night)
                                    .atStartOfDay(ZoneOffset.UTC)
                                    .toInstant()
                                    .plusSeconds(3600L * run))));
                }
            }
        }
        return rs;
    }

    @Test
    void theVerdictsOfAWholeSeriesAreTheChecksOfEachRun() {
        Series s = new Series(noisy(3));
        Map<String, List<SeriesCheck.Verdict>> verdicts = SeriesCheck.verdicts(s, RULES);
        int movements = 0;
        int rebasings = 0;
        for (String run : s.runs()) {
            SeriesCheck check = SeriesCheck.of(s, run, RULES);
            List<SeriesCheck.Movement> expected = new ArrayList<>();
            List<SeriesCheck.Rebasing> expectedRebasings = new ArrayList<>();
            int compared = 0;
            for (List<SeriesCheck.Verdict> key : verdicts.values()) {
                for (SeriesCheck.Verdict v : key) {
                    if (v.reading().run().equals(run)) {
                        v.movement().ifPresent(expected::add);
                        v.rebasing().ifPresent(expectedRebasings::add);
                        compared += v.compared() ? 1 : 0;
                    }
                }
            }
            assertEquals(new HashSet<>(expected), new HashSet<>(check.movements()), run);
            assertEquals(expectedRebasings, check.rebasings(), run);
            assertEquals(compared, check.compared(), run);
            movements += expected.size();
            rebasings += expectedRebasings.size();
        }
        assertTrue(movements > 0, "the series moves");
        assertEquals(6, rebasings, "each key once, on the first v2 night");
    }

    @Test
    void mergingHistoriesInEitherOrderFlagsTheSameReadings() {
        List<Reading> all = noisy(5);
        List<Reading> older =
                all.stream().filter(r -> r.date().isBefore(DAY.plusDays(30))).toList();
        List<Reading> newer =
                all.stream().filter(r -> !r.date().isBefore(DAY.plusDays(30))).toList();
        List<Reading> reversed = new ArrayList<>(all);
        Collections.reverse(reversed);
        SeriesFile a = SeriesFile.of(newer).with(SeriesFile.of(older)).file();
        SeriesFile b = SeriesFile.of(older).with(SeriesFile.of(newer)).file();
        SeriesFile c = SeriesFile.of(reversed);
        Map<String, List<String>> flagged = flags(a.series());
        assertFalse(flagged.values().stream().allMatch(List::isEmpty), "something is flagged");
        assertEquals(flagged, flags(b.series()));
        assertEquals(flagged, flags(c.series()));
        assertEquals(flagged, flags(SeriesFile.read(a.write(), "a.csv").series()), "and after a round trip");
    }

    /** Returns per key the runs flagged, each with its rule and whether it is new. */
    private static Map<String, List<String>> flags(Series s) {
        Map<String, List<String>> flags = new LinkedHashMap<>();
        SeriesCheck.verdicts(s, RULES)
                .forEach((key, verdicts) -> flags.put(
                        key,
                        verdicts.stream()
                                .filter(v ->
                                        v.movement().isPresent() || v.rebasing().isPresent())
                                .map(v -> v.reading().run() + " "
                                        + v.movement()
                                                .map(m -> m.move().rule().id() + (m.isNew() ? " new" : ""))
                                                .orElse("re-based"))
                                .toList()));
        return new TreeMap<>(flags);
    }

    @Test
    @Timeout(20)
    void aWholeHistoryIsLinearNotQuadraticInItsLength() {
        // 20,000 nights of one key: the noise recomputed from the start for each reading takes
        // minutes; kept as a running median, one pass takes well under a second.
        List<Reading> rs = new ArrayList<>();
        Random random = new Random(1);
        for (int night = 0; night < 20_000; night++) {
            rs.add(new Reading(
                    DAY.plusDays(night),
                    "n" + night,
                    "c",
                    "x",
                    "k",
                    1 + 0.05 * random.nextGaussian() * random.nextGaussian()));
        }
        Series s = new Series(rs);
        List<SeriesCheck.Verdict> verdicts = SeriesCheck.verdicts(s, RULES).get("k");
        assertEquals(20_000, verdicts.size());
        SeriesCheck last = SeriesCheck.of(s, "n19999", RULES);
        assertEquals(verdicts.get(19_999).movement().stream().toList(), last.movements());
    }
}
