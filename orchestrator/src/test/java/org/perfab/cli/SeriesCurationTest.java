package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.model.SeriesFile;
import org.perfab.testing.GitFixture;

/**
 * {@code perfab series import} and {@code replay} keeping a series to a ref and dropping named runs,
 * from the command line, on a real repository: nine nights on {@code main}, and two stray runs
 * whose ratio jumps, one of a branch since deleted and one of a commit the repository never had, as
 * a wiki's history holds them.
 */
class SeriesCurationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HEADER = "date,run,commit,cpu,key,ratio\n";
    /** A commit id no repository here has. */
    private static final String GONE = "0badc0ffee0badc0ffee0badc0ffee0badc0ffee";

    @TempDir
    Path tmp;

    private GitFixture git;
    private final List<String> main = new ArrayList<>();
    private String branch;

    @BeforeEach
    void repository() throws IOException {
        git = GitFixture.init(tmp.resolve("repo"));
        for (int i = 1; i <= 9; i++) {
            main.add(git.write("src.txt", "v" + i).commit("main " + i));
            if (i == 4) {
                git.git("checkout", "-q", "-b", "feature");
                branch = git.write("src.txt", "branch").commit("a branch's commit");
                git.git("checkout", "-q", "main");
            }
        }
        git.git("branch", "-q", "-D", "feature");
    }

    /** Returns a night's rows: two keys, {@code k} at {@code ratio}. */
    private static String night(int day, String run, String commit, double ratio) {
        String date = LocalDate.of(2026, 8, 20).plusDays(day).toString();
        return date + "," + run + "," + commit + ",cpu,k," + ratio + "\n" + date + "," + run + "," + commit
                + ",cpu,quiet,1.0\n";
    }

    /** The nine nights on main, each commit recorded by its first 12 digits as a wiki would. */
    private String mainNights(int from, int to) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i <= to; i++) {
            s.append(night(i, "n" + i, main.get(i - 1).substring(0, 12), 1.0 + 0.002 * (i % 3)));
        }
        return s.toString();
    }

    @Test
    void mergeOnMainLeavesOutEveryRunOffItOfBothHistoriesAndNamesEach() throws IOException {
        Path series = tmp.resolve("ratios.csv");
        Path wiki = tmp.resolve("wiki.csv");
        Files.writeString(series, HEADER + mainNights(1, 6) + night(5, "b1", branch, 1.6));
        Files.writeString(wiki, HEADER + mainNights(5, 9) + night(8, "w1", GONE, 1.7));
        Cli run = Cli.run(
                "series",
                "import",
                "--series",
                series.toString(),
                "--from",
                wiki.toString(),
                "--on",
                "main",
                "--repo",
                git.dir().toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("perfab: dropped run b1 (2026-08-25, commit " + branch.substring(0, 12)
                                + ", 2 readings): its commit is not on main\n"),
                run.err());
        assertTrue(
                run.err()
                        .contains("perfab: dropped run w1 (2026-08-28, commit " + GONE.substring(0, 12)
                                + ", 2 readings): its commit is not in the repository\n"),
                run.err());
        assertTrue(
                run.err().contains("perfab: dropped 2 of 11 runs (4 readings); kept 9, every one's commit on main\n"),
                run.err());
        assertTrue(run.out().contains("6 readings added, 4 already there; 9 runs in all"), run.out());
        String written = Files.readString(series);
        assertEquals(
                HEADER + mainNights(1, 6) + mainNights(7, 9),
                written,
                "the series' own stray row removed, the other's never added");
    }

    @Test
    void replayOnMainDropsTheStrayRunsThatCaughtTheStepOnTheWrongNight() throws IOException {
        Path series = tmp.resolve("ratios.csv");
        Files.writeString(
                series,
                HEADER + mainNights(1, 5) + night(5, "b1", branch, 1.6) + mainNights(6, 9) + night(9, "w1", GONE, 1.7));
        List<String> args = List.of(
                "series",
                "replay",
                "--series",
                series.toString(),
                "--rules",
                "step=30,noise=0",
                "--key",
                "k",
                "--format",
                "json");
        Cli all = Cli.run(args.toArray(String[]::new));
        assertEquals(0, all.exitCode(), all.err());
        JsonNode stray = JSON.readTree(all.out());
        assertEquals("b1", stray.at("/options/0/caught/k/run").asText(), all.out());
        assertFalse(stray.has("curation"), "no curation asked, none written");
        assertEquals("", all.err());

        List<String> on = new ArrayList<>(args);
        on.addAll(List.of("--on", "main", "--repo", git.dir().toString()));
        Cli kept = Cli.run(on.toArray(String[]::new));
        assertEquals(0, kept.exitCode(), kept.err());
        JsonNode replay = JSON.readTree(kept.out());
        assertEquals(9, replay.get("runs").asInt());
        assertEquals(0, replay.at("/options/0/newTotal").asInt(), kept.out());
        assertTrue(replay.at("/options/0/caught/k").isNull(), kept.out());
        JsonNode curation = replay.get("curation");
        assertEquals("main", curation.get("on").asText());
        assertEquals(11, curation.get("runs").asInt());
        assertEquals(4, curation.get("droppedReadings").asInt());
        assertEquals(
                List.of("b1", "off-ref", "w1", "absent"),
                List.of(
                        curation.at("/dropped/0/run").asText(),
                        curation.at("/dropped/0/reason").asText(),
                        curation.at("/dropped/1/run").asText(),
                        curation.at("/dropped/1/reason").asText()));
        assertEquals(branch, curation.at("/dropped/0/commit").asText());
        assertEquals("2026-08-25", curation.at("/dropped/0/date").asText());
        assertTrue(
                kept.err().contains("perfab: dropped run b1 (2026-08-25, commit " + branch.substring(0, 12)),
                kept.err());
        assertTrue(
                kept.err().contains("perfab: dropped run w1 (2026-08-29, commit " + GONE.substring(0, 12)), kept.err());
    }

    @Test
    void aRunNamedIsDroppedAndARunWithoutACommitIsNotShownOnTheRef() throws IOException {
        Path series = tmp.resolve("ratios.csv");
        Files.writeString(series, HEADER + mainNights(1, 9) + night(10, "local", "", 1.0));
        Cli run = Cli.run(
                "series",
                "replay",
                "--series",
                series.toString(),
                "--on",
                main.get(8),
                "--repo",
                git.dir().toString(),
                "--drop-run",
                "n3",
                "--drop-run",
                "n4");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                "perfab: dropped run n3 (2026-08-23, commit " + main.get(2).substring(0, 12) + ", 2 readings):"
                        + " named by --drop-run\n"
                        + "perfab: dropped run n4 (2026-08-24, commit "
                        + main.get(3).substring(0, 12) + ", 2 readings):"
                        + " named by --drop-run\n"
                        + "perfab: dropped run local (2026-08-30, no commit, 2 readings): it records no commit to find on "
                        + main.get(8) + "\n"
                        + "perfab: dropped 3 of 10 runs (6 readings); kept 7, every one's commit on " + main.get(8)
                        + "\n",
                run.err());
        assertTrue(run.out().startsWith("Replayed run by run over 7 runs"), run.out());
    }

    @Test
    void aRefThatDoesNotExistOrARunToDropThatDoesNotIsAnErrorNamingIt() throws IOException {
        Path series = tmp.resolve("ratios.csv");
        Files.writeString(series, HEADER + mainNights(1, 4));
        Path wiki = tmp.resolve("wiki.csv");
        Files.writeString(wiki, HEADER + mainNights(4, 5));
        Cli ref = Cli.run(
                "series",
                "replay",
                "--series",
                series.toString(),
                "--on",
                "mian",
                "--repo",
                git.dir().toString());
        assertEquals(ExitCode.BAD_INPUT, ref.exitCode());
        assertTrue(ref.err().contains("--on: unknown ref 'mian' in " + git.dir()), ref.err());
        Cli typo = Cli.run(
                "series", "import", "--series", series.toString(), "--from", wiki.toString(), "--drop-run", "n9");
        assertEquals(ExitCode.BAD_INPUT, typo.exitCode());
        assertTrue(typo.err().contains("--drop-run 'n9': no run of that id in " + series + " and " + wiki), typo.err());
        assertEquals(HEADER + mainNights(1, 4), Files.readString(series), "nothing written");
        Cli notRepo = Cli.run(
                "series",
                "import",
                "--series",
                series.toString(),
                "--from",
                wiki.toString(),
                "--on",
                "main",
                "--repo",
                tmp.resolve("nowhere").toString());
        assertEquals(ExitCode.BAD_INPUT, notRepo.exitCode());
        assertTrue(notRepo.err().contains("nowhere: no such folder"), notRepo.err());
    }

    @Test
    void mergeOnARefEveryRunIsOnSaysSoAndDropsNothing() throws IOException {
        Path series = tmp.resolve("ratios.csv");
        Path wiki = tmp.resolve("wiki.csv");
        Files.writeString(series, HEADER + mainNights(1, 3));
        Files.writeString(wiki, HEADER + mainNights(4, 9));
        Cli run = Cli.run(
                "series",
                "import",
                "--series",
                series.toString(),
                "--from",
                wiki.toString(),
                "--on",
                "main",
                "--repo",
                git.dir().toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("perfab: dropped 0 of 9 runs (0 readings); kept 9, every one's commit on main\n", run.err());
        assertEquals(
                9,
                SeriesFile.read(Files.readString(series), "ratios.csv")
                        .series()
                        .runs()
                        .size());
    }
}
