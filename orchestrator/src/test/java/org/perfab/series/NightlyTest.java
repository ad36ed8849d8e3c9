package org.perfab.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.failure.BadInputException;
import org.perfab.model.Series;
import org.perfab.model.SeriesCheck;
import org.perfab.model.SeriesFile;
import org.perfab.model.SeriesReplay;
import org.perfab.report.Products;
import org.perfab.stats.SeriesRules;

/**
 * {@link Nightly}'s rules that the command line does not show directly: which branch records,
 * where a run's id and commit come from, which run a check takes, and how a followed key is read.
 */
class NightlyTest {
    private static final Instant NOW = Instant.parse("2026-09-01T02:13:07Z");

    @TempDir
    Path tmp;

    /** Every file written, in order. */
    private final List<Path> written = new ArrayList<>();

    private final BiConsumer<Path, String> write = (file, text) -> {
        written.add(file);
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    };

    private Nightly.Recorded record(Optional<String> run, Optional<String> branch, Map<String, String> env)
            throws IOException {
        Path csv = tmp.resolve("bdn.csv");
        Files.writeString(csv, "Method,Ratio\nEncode,1.25\nDecode,0.5\n");
        return Nightly.record(
                new Nightly.Recording(
                        tmp.resolve("ratios.csv"),
                        new Nightly.Ratios(csv, List.of(), Optional.empty()),
                        LocalDate.of(2026, 9, 1),
                        NOW,
                        run,
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of("cpu"),
                        branch,
                        "main",
                        SeriesRules.Options.DEFAULT,
                        env),
                write);
    }

    @ParameterizedTest(name = "--branch {0}, GITHUB_HEAD_REF {1}, GITHUB_REF_NAME {2}: on {3}, records {4}")
    @CsvSource(
            nullValues = "-",
            value = {
                "-, -, -, '', true",
                "main, -, -, main, true",
                "feature/x, -, -, feature/x, false",
                "-, -, main, main, true",
                "-, '  ', main, main, true",
                "-, fix-it, main, fix-it, false",
                "main, fix-it, 12/merge, main, true",
                "-, -, 12/merge, 12/merge, false"
            })
    void recordsOnTheMainBranchOrOnNoneAndOnlyChecksElsewhere(
            String branch, String headRef, String refName, String on, boolean records) throws IOException {
        Map<String, String> env = new HashMap<>();
        if (headRef != null) {
            env.put("GITHUB_HEAD_REF", headRef);
        }
        if (refName != null) {
            env.put("GITHUB_REF_NAME", refName);
        }
        Nightly.Recorded r = record(Optional.of("n1"), Optional.ofNullable(branch), env);
        assertEquals(on, r.branch());
        assertEquals(records, r.recorded());
        assertEquals(records ? List.of(tmp.resolve("ratios.csv")) : List.of(), written);
        assertEquals(2, r.merged().added(), "added to the series checked, written or not");
        assertEquals("n1", r.check().run());
    }

    @Test
    void aRunOfAnotherToolsRatiosTakesItsIdAndCommitFromGithubElseItsDay() throws IOException {
        Nightly.Recorded github =
                record(Optional.empty(), Optional.of("main"), Map.of("GITHUB_RUN_ID", "77", "GITHUB_SHA", "abc"));
        assertEquals("77", github.run());
        SeriesFile file = SeriesFile.read(Files.readString(tmp.resolve("ratios.csv")), "ratios.csv");
        assertEquals(
                List.of("abc", "abc"),
                file.series().readings().stream().map(r -> r.commit()).toList());
        Files.delete(tmp.resolve("ratios.csv"));
        Nightly.Recorded plain = record(Optional.empty(), Optional.of("main"), Map.of());
        assertEquals("2026-09-01", plain.run());
    }

    @Test
    void anotherToolsRunIsTimedByTheClockOnItsOwnDayOnly() throws IOException {
        Path csv = tmp.resolve("bdn.csv");
        Files.writeString(csv, "Method,Ratio\nEncode,1.25\n");
        Path series = tmp.resolve("ratios.csv");
        for (LocalDate day : List.of(LocalDate.of(2026, 9, 1), LocalDate.of(2026, 8, 31))) {
            Nightly.record(
                    new Nightly.Recording(
                            series,
                            new Nightly.Ratios(csv, List.of(), Optional.empty()),
                            day,
                            NOW.plusNanos(123),
                            Optional.of("r-" + day),
                            Optional.empty(),
                            Optional.of("v1.4.0"),
                            Optional.of("cpu"),
                            Optional.empty(),
                            "main",
                            SeriesRules.Options.DEFAULT,
                            Map.of()),
                    write);
        }
        List<Series.Reading> readings =
                SeriesFile.read(Files.readString(series), "ratios.csv").series().readings();
        assertEquals(
                List.of(Optional.empty(), Optional.of(NOW)),
                readings.stream().map(Series.Reading::time).toList(),
                "tonight's to the second; a run of another day recorded now has no time");
        assertEquals(
                List.of("v1.4.0", "v1.4.0"),
                readings.stream().map(Series.Reading::base).toList());
    }

    @Test
    void aCheckTakesTheLatestRunUnlessToldAndNamesOneTheSeriesLacks() throws IOException {
        Path file = tmp.resolve("ratios.csv");
        Files.writeString(
                file, SeriesFile.of(SyntheticSeries.make(1).readings()).write());
        SeriesCheck latest = Nightly.check(file, Optional.empty(), SeriesRules.Options.DEFAULT);
        assertEquals("nightly-2026-09-13", latest.run());
        SeriesCheck step = Nightly.check(file, Optional.of("nightly-2026-09-01"), SeriesRules.Options.DEFAULT);
        Map<String, String> outputs = Products.SERIES_CHECK.outputs(step);
        assertEquals(List.of("new", "persisting", "rebased"), List.copyOf(outputs.keySet()));
        int fresh = (int)
                step.movements().stream().filter(SeriesCheck.Movement::isNew).count();
        assertEquals(List.of(6, 3), List.of(fresh, step.movements().size() - fresh), "the step's night, seed 1");
        assertEquals(String.valueOf(fresh), outputs.get("new"));
        assertEquals(String.valueOf(step.movements().size() - fresh), outputs.get("persisting"));
        BadInputException none = assertThrows(
                BadInputException.class, () -> Nightly.check(file, Optional.of("n9"), SeriesRules.Options.DEFAULT));
        assertEquals(file + ": no run 'n9' (the latest is 'nightly-2026-09-13')", none.getMessage());
        Files.writeString(file, "date,run,commit,cpu,key,ratio\n");
        BadInputException empty = assertThrows(
                BadInputException.class, () -> Nightly.check(file, Optional.empty(), SeriesRules.Options.DEFAULT));
        assertEquals(file + ": the series has no readings", empty.getMessage());
    }

    @ParameterizedTest
    @CsvSource(
            nullValues = "-",
            value = {
                "Encode/unigram, Encode/unigram, -",
                "Encode/unigram=2026-09-01, Encode/unigram, 2026-09-01",
                "a=b=2026-09-01, a=b, 2026-09-01",
                "x=notadate, x=notadate, -",
                "=2026-09-01, =2026-09-01, -"
            })
    void aFollowedKeyMayNameTheDayItsChangeAppeared(String text, String key, LocalDate since) {
        assertEquals(new SeriesReplay.Watch(key, Optional.ofNullable(since)), Nightly.watch(text));
    }

    @Test
    void aReplayRefusesAKeyTheSeriesLacks() throws IOException {
        Path file = tmp.resolve("ratios.csv");
        Files.writeString(file, "date,run,commit,cpu,key,ratio\n2026-09-01,n1,a,cpu,k,1.0\n");
        BadInputException e = assertThrows(
                BadInputException.class,
                () -> Nightly.replay(file, List.of("step=30"), List.of(Nightly.watch("j=2026-09-01")), Curation.NONE));
        assertEquals(file + ": no key 'j'", e.getMessage());
    }
}
