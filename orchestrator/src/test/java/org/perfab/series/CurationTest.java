package org.perfab.series;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.model.SeriesCuration;
import org.perfab.model.SeriesFile;
import org.perfab.model.SeriesImport;
import org.perfab.testing.GitFixture;

/** {@link Curation}: which runs of a series are left out, and {@link Nightly#merge} writing the series without them. */
class CurationTest {
    @TempDir
    Path tmp;

    @Test
    void aRunIsKeptOnlyWhenEveryCommitItRecordsIsOnTheRefAndANamedRunIsDroppedFirst() throws IOException {
        GitFixture git = GitFixture.init(tmp.resolve("repo"));
        String a = git.write("f", "a").commit("a");
        git.git("checkout", "-q", "-b", "side");
        String off = git.write("f", "side").commit("side");
        git.git("checkout", "-q", "main");
        String b = git.write("f", "b").commit("b");
        SeriesFile file = SeriesFile.read(
                "date,run,commit,cpu,key,ratio\n"
                        + "2026-09-01,r1," + a + ",cpu,k,1.0\n"
                        + "2026-09-01,r1," + a + ",cpu,j,1.0\n"
                        + "2026-09-02,mixed," + b + ",cpu,k,1.0\n"
                        + "2026-09-02,mixed," + off + ",cpu,j,1.0\n"
                        + "2026-09-03,r3," + b + ",cpu,k,1.0\n"
                        + "2026-09-04,r4," + off + ",cpu,k,1.0\n",
                "ratios.csv");
        SeriesCuration c =
                new Curation(Optional.of("main"), git.dir(), List.of("r3", "r4")).decide(file.series(), "ratios.csv");
        assertEquals(
                List.of(
                        new SeriesCuration.Dropped(
                                "mixed", LocalDate.of(2026, 9, 2), off, SeriesCuration.Reason.OFF_REF, 2),
                        new SeriesCuration.Dropped("r3", LocalDate.of(2026, 9, 3), b, SeriesCuration.Reason.NAMED, 1),
                        new SeriesCuration.Dropped(
                                "r4", LocalDate.of(2026, 9, 4), off, SeriesCuration.Reason.NAMED, 1)),
                c.dropped());
        assertEquals(4, c.runs());
        assertEquals(4, c.readings());
        assertEquals(List.of("r1"), c.apply(file).series().runs());
        SeriesCuration none = Curation.NONE.decide(file.series(), "ratios.csv");
        assertFalse(none.any());
        assertSame(file, none.apply(file), "nothing dropped, the file as it was");
    }

    @Test
    void mergeDropsANamedRunFromTheSeriesOwnRowsAndTheOthers() throws IOException {
        Path series = tmp.resolve("ratios.csv");
        Path wiki = tmp.resolve("wiki.csv");
        Files.writeString(
                series,
                "date,run,commit,cpu,key,ratio,note\n2026-09-01,n1,a,cpu,k,1.0,x\n"
                        + "2026-09-02,stray,s,cpu,k,1.5,y\n");
        Files.writeString(
                wiki, "date,run,commit,cpu,key,ratio\n2026-09-02,stray,s,cpu,j,1.5\n2026-09-03,n3,c,cpu,k,1.0\n");
        Map<Path, String> written = new HashMap<>();
        SeriesImport m = Nightly.importHistory(
                series,
                wiki,
                new Curation(Optional.empty(), tmp, List.of("stray")),
                LocalDate.of(2026, 9, 3),
                written::put);
        assertEquals(
                "date,run,commit,cpu,key,ratio,note\n2026-09-01,n1,a,cpu,k,1.0,x\n2026-09-03,n3,c,cpu,k,1.0,\n",
                written.get(series),
                "the rows and columns kept as they were");
        assertEquals(1, m.merged().added());
        assertEquals(
                List.of(new SeriesCuration.Dropped(
                        "stray", LocalDate.of(2026, 9, 2), "s", SeriesCuration.Reason.NAMED, 2)),
                m.curation().dropped(),
                "its readings of both files");
    }
}
