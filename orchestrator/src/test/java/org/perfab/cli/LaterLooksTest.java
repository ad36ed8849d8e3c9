package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perfab.exec.Processes;
import org.perfab.model.CellComparison;
import org.perfab.model.Measurement;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;
import org.perfab.stats.Verdict;
import org.perfab.testing.FakeEngine;
import org.perfab.testing.GitFixture;

/**
 * The later looks of a run with adaptive trials measure only the cells the earlier looks left
 * undecided, through the harness's own filter: in process, with a fake {@code go test} whose values
 * come from each side's own {@code slow.txt} (a line {@code NAME FACTOR SPREAD} per sub-benchmark),
 * so a verdict still rests on which side's code ran.
 */
class LaterLooksTest {
    private static final List<String> FUNCTIONS = List.of(
            "BenchmarkSum", "BenchmarkRank", "BenchmarkCount", "BenchmarkOnes", "BenchmarkFlip", "BenchmarkLeaf");
    private static final List<Integer> SIZES = List.of(8, 64);

    @TempDir
    Path tmp;

    /**
     * go test: {@code -list REGEX} lists the functions it matches; {@code -bench} runs what go's
     * testing package runs ({@link #runs}); {@code BenchmarkLeaf} has no sub-benchmarks.
     */
    private static Processes.Outcome go(Processes.Command c) throws IOException {
        return go(c, true);
    }

    /**
     * go test as {@link #go(Processes.Command)}, or, without {@code choices}, as a filter that reads
     * {@code -bench} otherwise: one pattern, whatever its top-level {@code |}, of which it runs the
     * first function's sub-benchmarks only.
     */
    private static Processes.Outcome go(Processes.Command c, boolean choices) throws IOException {
        Path tree = Path.of(c.env().get("PERFAB_SIDE_DIR"));
        List<String> argv = c.argv();
        StringBuilder out = new StringBuilder();
        int list = argv.indexOf("-list");
        if (list >= 0) {
            Pattern p = Pattern.compile(argv.get(list + 1));
            FUNCTIONS.stream()
                    .filter(f -> p.matcher(f).find())
                    .forEach(f -> out.append(f).append('\n'));
            out.append("ok  \texample.com/bits\t0.004s\n");
        } else {
            String bench = argv.get(argv.indexOf("-bench") + 1);
            Map<String, double[]> slow = new HashMap<>();
            for (String line : Files.readAllLines(tree.resolve("slow.txt"))) {
                String[] f = line.split(" ");
                slow.put(f[0], new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[2])});
            }
            int trial = Integer.parseInt(c.env().get("PERFAB_TRIAL"));
            String side = c.env().get("PERFAB_SIDE");
            out.append("goos: linux\ngoarch: amd64\npkg: example.com/bits\n");
            for (String f : FUNCTIONS) {
                List<String> names = f.equals("BenchmarkLeaf")
                        ? runs(bench, f, null, choices) ? List.of(f) : List.of()
                        : SIZES.stream()
                                .filter(s -> runs(bench, f, "size=" + s, choices))
                                .map(s -> f + "/size=" + s)
                                .toList();
                for (String name : names) {
                    double[] s = slow.getOrDefault(name, new double[] {1.0, 0.005});
                    double z = new Random((name + "|" + side + "|" + trial + "|" + s[0]).hashCode()).nextGaussian();
                    out.append(String.format(
                            Locale.ROOT, "%s-8   \t 1000000\t%10.3f ns/op\n", name, 200 * s[0] * (1 + s[1] * z)));
                }
            }
            out.append("PASS\nok  \texample.com/bits\t1.234s\n");
        }
        Files.writeString(c.stdout(), out.toString(), StandardCharsets.UTF_8);
        return FakeEngine.ok(0.5);
    }

    /**
     * Returns whether go's {@code -bench pattern} runs the sub-benchmark {@code sub} of {@code
     * function} (or the function, where {@code sub} is null: it has none), as go's testing package
     * reads a pattern: a choice of whole patterns at each {@code |}, and each of those a pattern per
     * level of a name at each {@code /}, neither counted within brackets or parentheses.
     */
    private static boolean runs(String pattern, String function, String sub, boolean choices) {
        for (String choice : choices ? split(pattern, '|') : List.of(pattern)) {
            List<String> levels = split(choice, '/');
            if (Pattern.compile(levels.get(0)).matcher(function).find()
                    && (sub == null
                            || levels.size() < 2
                            || Pattern.compile(levels.get(1)).matcher(sub).find())) {
                return true;
            }
        }
        return false;
    }

    /** Returns {@code s} split at each {@code at} outside brackets and parentheses. */
    private static List<String> split(String s, char at) {
        List<String> parts = new ArrayList<>();
        int brackets = 0;
        int parens = 0;
        int from = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                brackets++;
            } else if (c == ']') {
                brackets = Math.max(0, brackets - 1);
            } else if (brackets == 0 && c == '(') {
                parens++;
            } else if (brackets == 0 && c == ')') {
                parens--;
            } else if (brackets == 0 && parens == 0 && c == at) {
                parts.add(s.substring(from, i));
                from = i + 1;
            }
        }
        parts.add(s.substring(from));
        return parts;
    }

    /**
     * Returns the suite's repository: Rank/size=64 and Count/size=8 noisy on both sides (15%), and on
     * {@code feature} the lines {@code headSlow} of {@code slow.txt} besides.
     */
    private GitFixture suite(String headSlow) throws IOException {
        String noisy = "BenchmarkRank/size=64 1.0 0.15\nBenchmarkCount/size=8 1.0 0.15\n";
        GitFixture g = GitFixture.init(tmp.resolve("repo"));
        g.write(
                        "perfab.yaml",
                        "name: bits\ntrials: 5\nwarmup: 0\nadaptive: 20\nharness:\n"
                                + "  run: [go, test, -run, '^$', -bench, ., -count, '3']\n  format: go\n")
                .write("slow.txt", noisy);
        g.commit("the suite");
        g.git("checkout", "-q", "-b", "feature");
        g.write("slow.txt", noisy + headSlow).write("CHANGES", "a change\n");
        g.commit("a change");
        return g;
    }

    @Test
    void laterLooksRunOnlyTheSubBenchmarksStillUndecided() throws IOException {
        FakeEngine fake = new FakeEngine().program("go", LaterLooksTest::go);
        // The head makes Sum/size=8 12% slower; Rank/size=64 and Count/size=8 are noisy on both
        // sides, and no slower.
        GitFixture g = suite("BenchmarkSum/size=8 1.12 0.005\n");
        Path out = tmp.resolve("out");
        Cli run = Cli.ab(fake.engine(), g.dir(), out);
        assertEquals(0, run.exitCode(), run.err());

        // Trials of the first look ran the whole suite; the later ones only the two noisy cells, each
        // function narrowed to its own: neither Rank/size=8 nor Count/size=64, decided, runs again.
        List<Processes.Command> trials = fake.ran().stream()
                .filter(c -> c.argv().contains("-bench") && !c.argv().contains("-list"))
                .toList();
        assertTrue(trials.size() > 10, "later looks ran: " + trials.size() + " trials");
        for (int i = 0; i < trials.size(); i++) {
            String bench = trials.get(i).argv().get(trials.get(i).argv().indexOf("-bench") + 1);
            assertTrue(
                    i < 10
                            ? bench.equals(".")
                            : List.of(
                                            "^(BenchmarkRank)$/^(size=64)$|^(BenchmarkCount)$/^(size=8)$",
                                            "^(BenchmarkCount)$/^(size=8)$",
                                            "^(BenchmarkRank)$/^(size=64)$")
                                    .contains(bench),
                    "trial " + i + ": " + bench + "\n" + run.err());
            if (i == 10) {
                assertEquals("^(BenchmarkRank)$/^(size=64)$|^(BenchmarkCount)$/^(size=8)$", bench);
            }
        }
        assertTrue(run.err().contains("measures only the 2 undecided cell names"), run.err());

        RunResults results = ResultsJson.read(out.resolve("results.json"));
        Map<String, CellComparison> rows = new TreeMap<>();
        results.table().rows().forEach(r -> rows.put(r.cell().name(), r));
        assertEquals(11, rows.size(), rows.keySet().toString());
        assertEquals(Verdict.REGRESSION, rows.get("Sum/size=8").comparison().verdict());
        for (Map.Entry<String, CellComparison> e : rows.entrySet()) {
            CellComparison r = e.getValue();
            int n = r.comparison().base().n();
            if (e.getKey().equals("Rank/size=64") || e.getKey().equals("Count/size=8")) {
                assertTrue(n > 5, "the open cell took more trials: " + n);
                assertTrue(r.look().orElseThrow().look() > 1, e.getKey() + " " + r.look());
            } else {
                // Decided at the first look, with that look's figures.
                assertEquals(5, n, e.getKey());
                assertEquals(1, r.look().orElseThrow().look(), e.getKey());
                assertTrue(
                        r.comparison().verdict() == Verdict.UNCHANGED
                                || e.getKey().equals("Sum/size=8"),
                        e.getKey() + " " + r.comparison().verdict());
            }
        }
        // The later trials' results hold that cell alone. (results.json is read back re-judged.)
        TreeSet<String> later = new TreeSet<>();
        for (RunResults.TrialRecord t : results.trials()) {
            if (t.trial() >= 5) {
                t.measurements().stream().map(Measurement::cell).forEach(cell -> later.add(cell.name()));
            }
        }
        assertEquals(List.of("Count/size=8", "Rank/size=64"), List.copyOf(later));
    }

    /**
     * A filter that runs less than perfab asked for is found at the next look, said, and the later
     * looks run the harness whole: the cell it left out is not judged on its first look's trials
     * alone.
     */
    @Test
    void aFilterThatLeavesAnOpenCellOutIsSaidAndTheLaterLooksRunWhole() throws IOException {
        FakeEngine fake = new FakeEngine().program("go", c -> go(c, false));
        GitFixture g = suite("");
        Cli run = Cli.ab(fake.engine(), g.dir(), tmp.resolve("out"));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.err()
                        .contains("(10 trials per side): the harness's filter ran none of 1 undecided cell name it"
                                + " was asked for (Count/size=8); the later looks run the harness whole"),
                run.err());
        List<String> benches = fake.ran().stream()
                .filter(c -> c.argv().contains("-bench"))
                .map(c -> c.argv().get(c.argv().indexOf("-bench") + 1))
                .toList();
        assertEquals(".", benches.get(benches.size() - 1), "the last look ran the harness whole");
        RunResults results = ResultsJson.read(tmp.resolve("out/results.json"));
        for (CellComparison r : results.table().rows()) {
            if (r.cell().name().equals("Count/size=8") || r.cell().name().equals("Rank/size=64")) {
                assertTrue(
                        r.comparison().base().n() > 10,
                        r.cell() + ": " + r.comparison().base().n());
            }
        }
    }

    /** A pattern perfab cannot narrow (a choice of patterns with sub-benchmarks) runs whole at later looks. */
    @Test
    void aPatternPerfabCannotNarrowRunsWholeAtTheLaterLooks() throws IOException {
        FakeEngine fake = new FakeEngine().program("go", LaterLooksTest::go);
        GitFixture g = suite("");
        g.write(
                "perfab.yaml",
                "name: bits\ntrials: 5\nwarmup: 0\nadaptive: 20\nharness:\n  run: [go, test, -run, '^$', -bench,"
                        + " 'BenchmarkRank/size=64|BenchmarkCount/size=8', -count, '3']\n  format: go\n");
        g.commit("two sub-benchmarks only");
        Cli run = Cli.ab(fake.engine(), g.dir(), tmp.resolve("out"));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.err().contains("which perfab cannot narrow to a slice")
                        && run.err().contains("; the later looks run the harness whole"),
                run.err());
    }
}
