package org.perfab.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perfab.failure.BadInputException;
import org.perfab.model.CellId;
import org.perfab.model.Units;
import org.perfab.stats.Direction;

/** Every format adapter on output its tool produced (or its documented format, source named). */
class FormatsTest {
    private static final Path DIR = Path.of("src/test/resources/formats");

    @TempDir
    Path tmp;

    /** Returns how many readings each NAME:METRIC [unit, direction] has. */
    private static Map<String, Integer> census(List<Reading> readings) {
        Map<String, Integer> n = new LinkedHashMap<>();
        for (Reading r : readings) {
            n.merge(
                    r.cell().name() + ":" + r.cell().metric() + " [" + r.cell().unit() + ", "
                            + r.cell().direction().id() + "]",
                    1,
                    Integer::sum);
        }
        return n;
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "hyperfine-base.json, hyperfine",
        "go-base.txt, go",
        "google-benchmark-base.json, google-benchmark",
        "google-benchmark-aggregates.json, google-benchmark",
        "jmh-base.json, jmh",
        "pytest-benchmark-base.json, pytest-benchmark",
        "criterion-base.jsonl, criterion",
        "criterion/parse/small/new/estimates.json, criterion",
        "benchmarkdotnet-base.json, benchmarkdotnet",
        "libtest-base.txt, libtest",
        "catch2-base.xml, catch2",
        "benchmark.js-base.txt, benchmark.js",
    })
    void detectsEachToolsOutput(String file, String format) {
        assertEquals(format, Formats.detect(DIR.resolve(file)).id());
    }

    @Test
    void hyperfineGivesOneWallReadingPerRunAndItsMeanUserAndSystemTimes() {
        List<Reading> readings = new HyperfineJson().read(DIR.resolve("hyperfine-base.json"));
        assertEquals(
                Map.of(
                        "startup:wall [s, lower]",
                        5,
                        "convert:wall [s, lower]",
                        5,
                        "startup:user [s, lower]",
                        1,
                        "startup:system [s, lower]",
                        1,
                        "convert:user [s, lower]",
                        1,
                        "convert:system [s, lower]",
                        1),
                census(readings));
        Map<String, Double> startup = new LinkedHashMap<>();
        readings.stream()
                .filter(r ->
                        r.cell().name().equals("startup") && !r.cell().metric().equals("wall"))
                .forEach(r -> startup.put(r.cell().metric(), r.value()));
        assertEquals(Map.of("user", 0.0015001999999999997, "system", 0.0021742), startup);
    }

    @Test
    void hyperfineWithoutUserAndSystemGivesWallAlone() throws IOException {
        Path f = tmp.resolve("h.json");
        Files.writeString(f, "{\"results\": [{\"command\": \"run\", \"mean\": 0.5, \"times\": [0.4, 0.6]}]}");
        assertEquals(Map.of("run:wall [s, lower]", 2), census(new HyperfineJson().read(f)));
        Files.writeString(f, "{\"results\": [{\"command\": \"run\", \"times\": [0.4], \"user\": \"fast\"}]}");
        BadInputException e = assertThrows(BadInputException.class, () -> new HyperfineJson().read(f));
        assertTrue(e.getMessage().endsWith("results[0]: \"user\" is \"fast\", not a number"), e.getMessage());
    }

    @Test
    void goGivesOneReadingPerCountLineForEveryMetric() {
        Map<String, Integer> n = census(new GoBench().read(DIR.resolve("go-base.txt")));
        assertEquals(3, n.get("Parse:time [ns/op, lower]"));
        assertEquals(3, n.get("Parse:throughput [MB/s, higher]"));
        assertEquals(3, n.get("Parse:alloc-bytes [B/op, lower]"));
        assertEquals(3, n.get("Parse:allocs [allocs/op, lower]"));
        assertEquals(3, n.get("Sum/size=256:elems/op [elems/op, lower]"), "a custom metric per op is a cost");
        assertEquals(12, n.size(), "Parse, Sum/size=16 and Sum/size=256, four metrics each");
    }

    @Test
    void googleBenchmarkGivesRepetitionsOrTheMeanAggregate() {
        Map<String, Integer> reps = census(new GoogleBenchmarkJson().read(DIR.resolve("google-benchmark-base.json")));
        assertEquals(3, reps.get("BM_Sort/64:real_time [ns, lower]"));
        assertEquals(3, reps.get("BM_Sum:cpu_time [us, lower]"));
        assertEquals(3, reps.get("BM_Sort/64:items_per_second [items/s, higher]"), "SetItemsProcessed's rate");
        Map<String, Integer> aggregates =
                census(new GoogleBenchmarkJson().read(DIR.resolve("google-benchmark-aggregates.json")));
        assertEquals(1, aggregates.get("BM_Sort/4096:cpu_time [ns, lower]"));
    }

    @Test
    void jmhGivesOneReadingPerForkWithParamsInTheName() {
        List<Reading> readings = new JmhJson().read(DIR.resolve("jmh-base.json"));
        Map<String, Integer> n = census(readings);
        assertEquals(2, n.get("bench.Bench.hash/size=16:thrpt [ops/ms, higher]"));
        assertEquals(2, n.get("bench.Bench.sum/size=256:avgt [ns/op, lower]"));
        assertEquals(4, n.size());
    }

    @Test
    void theFormatsThatSayHowLongEachBenchmarkRanGiveItsTime() {
        // go: the count times ns/op, over the -count lines: 2,000 x (8,277 + 5,891 + 4,799) ns.
        Map<String, Double> go = new GoBench().seconds(DIR.resolve("go-base.txt"));
        assertEquals(2000 * (8277 + 5891 + 4799) * 1e-9, go.get("Parse"), 1e-12);
        assertTrue(go.containsKey("Sum/size=16") && go.containsKey("Sum/size=256"), go.toString());
        // Google Benchmark: iterations times real time, repetitions only, not their aggregates.
        Map<String, Double> gb = new GoogleBenchmarkJson().seconds(DIR.resolve("google-benchmark-base.json"));
        assertEquals(
                63639 * (221.36428919151996 + 220.8085607892399 + 223.50747183234873) * 1e-9,
                gb.get("BM_Sort/64"),
                1e-9);
        assertEquals(Map.of(), new GoogleBenchmarkJson().seconds(DIR.resolve("google-benchmark-aggregates.json")));
        // pytest-benchmark: each test's total.
        assertEquals(
                Map.of(
                        "tests/test_perf.py::test_parse",
                        0.01464362014686728,
                        "tests/test_perf.py::test_render",
                        0.10466715504780805),
                new PytestBenchmarkJson().seconds(DIR.resolve("pytest-benchmark-base.json")));
        // JMH: forks x (warm-up + measurement iterations, each 100 ms), by the cell's name with its params.
        Map<String, Double> jmh = new JmhJson().seconds(DIR.resolve("jmh-base.json"));
        assertEquals(2 * (1 + 3) * 0.1, jmh.get("bench.Bench.hash/size=16"), 1e-12);
        assertEquals(4, jmh.size());
        // A format that does not say gives none.
        assertEquals(Map.of(), new HyperfineJson().seconds(DIR.resolve("hyperfine-base.json")));
    }

    @Test
    void perfabJsonTakesEachBenchmarksTimeFromTheHarnessAndRefusesOneThatIsNot() throws IOException {
        Path file = tmp.resolve("r.json");
        Files.writeString(
                file,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a/8\","
                        + " \"metric\": \"time\", \"unit\": \"ms\", \"value\": 2}],\n \"seconds\": {\"a/8\": 1.5}}");
        assertEquals(Map.of("a/8", 1.5), Formats.perfabJson().seconds(file));
        assertEquals(1, Formats.perfabJson().read(file).size());
        Files.writeString(
                file,
                "{\"schema\": \"perfab/measurements/v1\", \"measurements\": [],\n \"seconds\":"
                        + " {\"a/8\": \"long\"}}");
        BadInputException e =
                assertThrows(BadInputException.class, () -> Formats.perfabJson().read(file));
        assertTrue(e.getMessage().startsWith(file + ":2:") && e.getMessage().contains("'a/8'"), e.getMessage());
    }

    @Test
    void theDocumentedFormatsReadToo() {
        assertEquals(
                Map.of(
                        "tests/test_perf.py::test_parse:time [s, lower]",
                        7,
                        "tests/test_perf.py::test_render:time [s, lower]",
                        7),
                census(new PytestBenchmarkJson().read(DIR.resolve("pytest-benchmark-base.json"))));
        assertEquals(
                Map.of("parse/small:time [ns, lower]", 10, "parse/large:time [ns, lower]", 10),
                census(new CriterionJson().read(DIR.resolve("criterion-base.jsonl"))));
        List<Reading> estimate = new CriterionJson().read(DIR.resolve("criterion/parse/small/new/estimates.json"));
        assertEquals(new CellId("parse/small", "time"), estimate.get(0).cell().id());
        assertEquals(152.3, estimate.get(0).value());
        Map<String, Integer> bdn = census(new BenchmarkDotNetJson().read(DIR.resolve("benchmarkdotnet-base.json")));
        assertEquals(15, bdn.get("Bench.Hashing.Md5:time [ns/op, lower]"));
        assertEquals(15, bdn.get("Bench.Hashing.Md5:alloc-bytes [B/op, lower]"));
    }

    @Test
    void convertsUnitsWithinACell() throws IOException {
        Path f = tmp.resolve("gb.json");
        Files.writeString(
                f,
                "{\"context\": {\"num_cpus\": 2}, \"benchmarks\": ["
                        + "{\"name\": \"BM_A\", \"run_type\": \"iteration\", \"real_time\": 1500, \"cpu_time\": 1500, \"time_unit\": \"ns\"},"
                        + "{\"name\": \"BM_A\", \"run_type\": \"iteration\", \"real_time\": 1.6, \"cpu_time\": 1.6, \"time_unit\": \"us\"}]}");
        List<Reading> r = new GoogleBenchmarkJson().read(f);
        assertEquals("ns", r.get(2).cell().unit());
        assertEquals(1600.0, r.get(2).value(), 1e-9);
    }

    @ParameterizedTest
    @CsvSource({
        "ns, us, 1500, 1.5",
        "us/op, ns/op, 2, 2000",
        "MB/s, KB/s, 1, 1000",
        "KiB, B, 2, 2048",
        "s, ms, 0.5, 500"
    })
    void convertsBetweenUnitsOfAKind(String from, String to, double value, double expected) {
        assertEquals(expected, Units.convert(value, from, to).orElseThrow(), 1e-9);
    }

    @Test
    void libtestCatch2AndBenchmarkJsGiveOneReadingPerRun() {
        assertEquals(
                Map.of(
                        "tests::bench_sum_large:time [ns/iter, lower]",
                        3,
                        "tests::bench_sum_small:time [ns/iter, lower]",
                        3),
                census(new LibtestBench().read(DIR.resolve("libtest-base.txt"))));
        assertEquals(
                Map.of(
                        "Sum/sum 64:time [ns, lower]",
                        3,
                        "Sum/sum 100000:time [ns, lower]",
                        3,
                        "Fibonacci/fib 30:time [ns, lower]",
                        3),
                census(new Catch2Xml().read(DIR.resolve("catch2-base.xml"))));
        assertEquals(
                Map.of(
                        "sum#small:throughput [ops/s, higher]",
                        3,
                        "sum#large:throughput [ops/s, higher]",
                        3,
                        "RegExp#test:throughput [ops/s, higher]",
                        3),
                census(new BenchmarkJs().read(DIR.resolve("benchmark.js-base.txt"))));
        Reading large = new LibtestBench().read(DIR.resolve("libtest-base.txt")).get(0);
        assertTrue(large.value() > 1000, "1,234.56 is a thousand and more: " + large.value());
    }

    @Test
    void catch2XmlNeverReadsAnEntityOrAFileItNames() throws IOException {
        Path secret = tmp.resolve("secret.txt");
        Files.writeString(secret, "hunter2");
        Path f = tmp.resolve("c.xml");
        Files.writeString(
                f,
                "<?xml version=\"1.0\"?>\n<!DOCTYPE Catch [<!ENTITY x SYSTEM \"file://" + secret
                        + "\">]>\n<Catch name=\"&x;\"><Group><TestCase name=\"T\"><BenchmarkResults name=\"b\">"
                        + "<mean value=\"1\"/></BenchmarkResults></TestCase></Group></Catch>\n");
        BadInputException e = assertThrows(BadInputException.class, () -> new Catch2Xml().read(f));
        assertTrue(e.getMessage().startsWith(f + ": 2:") && e.getMessage().contains("DOCTYPE"), e.getMessage());
        assertTrue(!e.getMessage().contains("hunter2"), e.getMessage());
    }

    @Test
    void namesTheLineOfABadLibtestOrCatch2Result() throws IOException {
        Path f = tmp.resolve("bench.txt");
        Files.writeString(f, "running 1 test\ntest a ... bench:   fast ns/iter (+/- 1)\n");
        BadInputException e = assertThrows(BadInputException.class, () -> new LibtestBench().read(f));
        assertTrue(e.getMessage().startsWith(f + ": 2: not a bench result line"), e.getMessage());
        Path x = tmp.resolve("c.xml");
        Files.writeString(
                x,
                Files.readString(DIR.resolve("catch2-base.xml"))
                        .replaceFirst("<mean value=\"[^\"]*\"", "<mean value=\"slow\""));
        e = assertThrows(BadInputException.class, () -> new Catch2Xml().read(x));
        assertTrue(
                e.getMessage()
                        .contains("BenchmarkResults 'sum 64' of the document at line 1: <mean value='slow'> is"
                                + " not a number"),
                e.getMessage());
        Files.writeString(
                x, Files.readString(DIR.resolve("catch2-base.xml")).replace("</Catch>\n<?xml", "</Catch\n<?xml"));
        e = assertThrows(BadInputException.class, () -> new Catch2Xml().read(x));
        assertTrue(e.getMessage().startsWith(x + ": "), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "1",
        "0",
        "12.5",
        ".5",
        "7.",
        "000120.0500",
        "123456789012345",
        "1234567890123456",
        "12345678901234567890",
        "0.1",
        "0.30000000000000004",
        "3.14159265358979323846",
        "1e3",
        "2.5E-3",
        "0.0000000000000000000001",
        "0.00000000000000000000001",
        "9007199254740993",
        "1.7976931348623157e308",
        "4.9e-324",
        "+5",
        "0x1p3"
    })
    void goReadsEveryNumberAsTheJdkDoes(String number) throws IOException {
        Path f = tmp.resolve("bench.txt");
        Files.writeString(f, "BenchmarkA-2  100  " + number + " ns/op\n");
        assertEquals(Double.parseDouble(number), new GoBench().read(f).get(0).value());
    }

    @Test
    void goReadsLongLinesWindowsLineEndingsAndNamesOutsideAscii() throws IOException {
        Path f = tmp.resolve("bench.txt");
        String longName = "Long/" + "x".repeat(70_000);
        String text = "goos: linux\r\n"
                + "BenchmarkÄpfel/größe=2-4\t100\t5 ns/op\u3000\r\n"
                + "Benchmark" + longName + "-4 100 6.5 ns/op\r\n"
                + "BenchmarkÄpfel/größe=2-4\t100\t7 ns/op\r\n";
        Files.writeString(f, text.repeat(3));
        List<Reading> r = new GoBench().read(f);
        assertEquals(9, r.size());
        assertEquals("Äpfel/größe=2", r.get(0).cell().name());
        assertEquals("ns/op", r.get(0).cell().unit(), "trailing white space is no part of the unit");
        assertEquals(longName, r.get(1).cell().name());
        assertEquals(
                List.of(5.0, 6.5, 7.0),
                r.subList(3, 6).stream().map(Reading::value).toList());
        assertEquals(
                List.of(2, 3, 4, 6),
                List.of(
                        r.get(0).line(),
                        r.get(1).line(),
                        r.get(2).line(),
                        r.get(3).line()));
    }

    @Test
    void goNamesTheLineOfAnErrorPastTheFirstBuffer() throws IOException {
        Path f = tmp.resolve("bench.txt");
        Files.writeString(f, "BenchmarkA-2  100  5 ns/op\n".repeat(10_000) + "BenchmarkA-2  100  5x ns/op\n");
        BadInputException e = assertThrows(BadInputException.class, () -> new GoBench().read(f));
        assertEquals(f + ": 10001: '5x' is not a number in: BenchmarkA-2  100  5x ns/op", e.getMessage());
    }

    @Test
    void goRefusesTextThatIsNotUtf8() throws IOException {
        Path f = tmp.resolve("bench.txt");
        Files.write(f, new byte[] {
            'B',
            'e',
            'n',
            'c',
            'h',
            'm',
            'a',
            'r',
            'k',
            'A',
            (byte) 0xff,
            ' ',
            '1',
            ' ',
            '5',
            ' ',
            'n',
            's',
            '/',
            'o',
            'p',
            '\n'
        });
        BadInputException e = assertThrows(BadInputException.class, () -> new GoBench().read(f));
        assertTrue(e.getMessage().startsWith(f + ": cannot read"), e.getMessage());
    }

    @Test
    void goKeepsASuffixThatNotEveryLineShares() throws IOException {
        Path f = tmp.resolve("bench.txt");
        Files.writeString(f, "BenchmarkA/size-1024  100  5 ns/op\nBenchmarkB  100  6 ns/op\n");
        assertEquals(
                List.of("A/size-1024", "B"),
                new GoBench().read(f).stream().map(r -> r.cell().name()).toList());
    }

    @Test
    void goKeepsASuffixALaterLineLacks() throws IOException {
        Path f = tmp.resolve("bench.txt");
        Files.writeString(
                f,
                "BenchmarkA-2  100  5 ns/op  8 B/op\nBenchmarkB-2  100  6 ns/op\nBenchmarkC/size-1024  100  7 ns/op\n");
        List<Reading> r = new GoBench().read(f);
        assertEquals(
                List.of("A-2", "A-2", "B-2", "C/size-1024"),
                r.stream().map(x -> x.cell().name()).toList());
        assertEquals(List.of(1, 1, 2, 3), r.stream().map(Reading::line).toList());
        Files.writeString(
                f,
                "BenchmarkA-2  100  5 ns/op  8 B/op\nBenchmarkA-2  100  5 ns/op  -8 B/op\n"
                        + "BenchmarkB  100  6 ns/op\n");
        BadInputException e = assertThrows(BadInputException.class, () -> new GoBench().read(f));
        assertTrue(
                e.getMessage().startsWith(f + ":2:1: cell 'A-2' (alloc-bytes): value -8 B/op is negative"),
                e.getMessage());
    }

    @Test
    void namesTheFileAndLineOfAMalformedGoLine() throws IOException {
        Path f = tmp.resolve("bench.txt");
        Files.writeString(f, "goos: linux\nBenchmarkA-2  100  fast ns/op\n");
        BadInputException e = assertThrows(BadInputException.class, () -> new GoBench().read(f));
        assertEquals(f + ": 2: 'fast' is not a number in: BenchmarkA-2  100  fast ns/op", e.getMessage());
    }

    @Test
    void rejectsAnUnknownUnitNamingIt() throws IOException {
        Path f = tmp.resolve("gb.json");
        Files.writeString(
                f,
                "{\"context\": {\"num_cpus\": 2}, \"benchmarks\": [{\"name\": \"BM_A\", \"run_type\":"
                        + " \"iteration\", \"real_time\": 1, \"cpu_time\": 1, \"time_unit\": \"fortnights\"}]}");
        BadInputException e = assertThrows(BadInputException.class, () -> new GoogleBenchmarkJson().read(f));
        assertTrue(
                e.getMessage().contains("benchmarks[0]: unit 'fortnights' of BM_A real_time does not tell"),
                e.getMessage());
    }

    @Test
    void namesLineAndColumnOfBrokenJson() throws IOException {
        Path f = tmp.resolve("h.json");
        Files.writeString(f, "{\"results\": [\n  {\"command\": \"a\", \"times\": [1, 2,]}\n]}");
        BadInputException e = assertThrows(BadInputException.class, () -> new HyperfineJson().read(f));
        assertTrue(e.getMessage().startsWith(f + ":2:"), e.getMessage());
    }

    @Test
    void saysWhichFormatsItKnowsWhenNoneFits() throws IOException {
        Path f = tmp.resolve("x.csv");
        Files.writeString(f, "a,b\n1,2\n");
        BadInputException e = assertThrows(BadInputException.class, () -> Formats.detect(f));
        assertTrue(e.getMessage().contains("not a format perfab knows (perfab-json, hyperfine, go,"), e.getMessage());
    }

    @Test
    void infersTimeRatesAsHigherIsBetter() {
        assertEquals(Direction.HIGHER_IS_BETTER, Units.direction("ops/ms").orElseThrow());
        assertEquals(Direction.HIGHER_IS_BETTER, Units.direction("ops/us").orElseThrow());
        assertEquals(Direction.LOWER_IS_BETTER, Units.direction("ms/op").orElseThrow());
    }

    @Test
    void csvReadsNamedColumnsConstantsAndQuotes() throws IOException {
        Path f = tmp.resolve("r.csv");
        Files.writeString(
                f,
                "name,ns_per_op,note\n\"parse, fast\",120.5,\"said \"\"hi\"\"\"\n"
                        + "\"two\nlines\",7,\"a note\nover two lines\"\nrender,900,x\n\n");
        List<Reading> r =
                new CsvFormat(CsvFormat.Columns.parse("cell=name,value=ns_per_op,metric=time,unit=ns")).read(f);
        assertEquals(3, r.size());
        assertEquals(new CellId("parse, fast", "time"), r.get(0).cell().id());
        assertEquals("ns", r.get(0).cell().unit());
        assertEquals(Direction.LOWER_IS_BETTER, r.get(0).cell().direction());
        assertEquals(
                new CellId("two\nlines", "time"), r.get(1).cell().id(), "a quoted line break is part of the field");
        assertEquals(900.0, r.get(2).value());
        assertEquals(6, r.get(2).line(), "lines are counted as the file has them");
    }

    @Test
    void csvNamesTheLineOfABadRow() throws IOException {
        Path f = tmp.resolve("r.csv");
        Files.writeString(f, "cell,metric,unit,value\na,time,ns,1\nb,time,ns,fast\n");
        BadInputException e =
                assertThrows(BadInputException.class, () -> Formats.detect(f).read(f));
        assertEquals(f + ": 3: 'fast' in column value is not a number", e.getMessage());
        Files.writeString(f, "cell,value\na,1,2\n");
        BadInputException fields =
                assertThrows(BadInputException.class, () -> new CsvFormat(CsvFormat.Columns.DEFAULT).read(f));
        assertEquals(f + ": 2: 3 fields, but the header has 2", fields.getMessage());
        Files.writeString(f, "cell,value,unit\n\"a\nb\",1,ns\nc,x,ns\n");
        BadInputException after =
                assertThrows(BadInputException.class, () -> new CsvFormat(CsvFormat.Columns.DEFAULT).read(f));
        assertEquals(f + ": 4: 'x' in column value is not a number", after.getMessage());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "cell=name,size=ns|'size' is not one of cell, value, metric, unit, direction",
                "cell|'cell' is not FIELD=COLUMN",
                "cell=a,cell=b|'cell' is named twice",
                "value=|the column of 'value' is empty",
            })
    void aColumnMappingIsReadOneWay(String spec, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CsvFormat.Columns.parse(spec));
        assertEquals(message, e.getMessage());
    }

    @Test
    void keepsANameSuffixWhenGoPrintsNoProcsSuffix() throws IOException {
        Path f = tmp.resolve("bench.txt");
        Files.writeString(f, "BenchmarkDecode/size-1024  100  50 ns/op\nBenchmarkDecode/size-4096  100  200 ns/op\n");
        assertEquals(
                Map.of("Decode/size-1024:time [ns/op, lower]", 1, "Decode/size-4096:time [ns/op, lower]", 1),
                census(new GoBench().read(f)));
        Files.writeString(
                f, "BenchmarkDecode/size-1024-8  100  50 ns/op\nBenchmarkDecode/size-4096-8  100  200 ns/op\n");
        assertEquals(
                Map.of("Decode/size-1024:time [ns/op, lower]", 1, "Decode/size-4096:time [ns/op, lower]", 1),
                census(new GoBench().read(f)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "perfab-json | x.json | {\"schema\": \"perfab/measurements/v1\", \"measurements\": [{\"cell\": \"a\", \"metric\": \"t\","
                        + " \"unit\": \"ns\", \"value\": 1},\\n {\"cell\": \"a\", \"metric\": \"t\", \"unit\": \"ns\", \"value\": -2.5}]}"
                        + " | x.json:2:2: cell 'a' (t): value -2.5 ns is negative",
                "go | x.txt | BenchmarkA-2  100  5 ns/op  8 B/op  0 allocs/op\\nBenchmarkA-2  100  5 ns/op  -8 B/op  0 allocs/op"
                        + " | x.txt:2:1: cell 'A' (alloc-bytes): value -8 B/op is negative",
                "csv | x.csv | cell,metric,unit,direction,value\\na,t,allocs/op,lower,-1 | x.csv:2:1: cell 'a' (t): value -1 allocs/op is negative",
                "hyperfine | x.json | {\"results\": [{\"command\": \"run\", \"mean\": 1, \"times\": [1, -0.5]}]}"
                        + " | x.json: cell 'run' (wall): value -0.5 s is negative",
                "hyperfine | x.json | {\"results\": [{\"command\": \"run\", \"times\": [1], \"user\": 0.2, \"system\": -0.01}]}"
                        + " | x.json: cell 'run' (system): value -0.01 s is negative",
                "benchmarkdotnet | x.json | {\"Benchmarks\": [{\"FullName\": \"B.M\", \"Statistics\": {\"OriginalValues\": [3]},"
                        + " \"Memory\": {\"BytesAllocatedPerOperation\": -64}}]} | x.json: cell 'B.M' (alloc-bytes): value -64 B/op",
                "pytest-benchmark | x.json | {\"benchmarks\": [{\"name\": \"t\", \"stats\": {\"mean\": -0.1}}]}"
                        + " | x.json: cell 't' (time): value -0.1 s",
                "google-benchmark | x.json | {\"benchmarks\": [{\"name\": \"BM\", \"real_time\": 5, \"cpu_time\": -5,"
                        + " \"time_unit\": \"ns\"}]} | x.json: cell 'BM' (cpu_time): value -5 ns",
            })
    void refusesANegativeTimeOrCostNamingTheFileCellAndValue(String format, String name, String text, String message)
            throws IOException {
        Path f = tmp.resolve(name);
        Files.writeString(f, text.replace("\\n", "\n") + "\n");
        BadInputException e = assertThrows(
                BadInputException.class,
                () -> Formats.byId(format).orElseThrow().read(f));
        assertTrue(e.getMessage().startsWith(f + message.substring(name.length())), e.getMessage());
        assertTrue(e.getMessage().endsWith("is negative, and a time or a cost cannot be"), e.getMessage());
    }

    @Test
    void keepsAZeroCostAndANegativeValueOfAUnitThatIsNotATimeOrACost() throws IOException {
        Path f = tmp.resolve("bench.txt");
        Files.writeString(f, "BenchmarkA-2  100  5 ns/op  0 B/op  0 allocs/op  -3 drift/op\n");
        Map<String, Double> values = new LinkedHashMap<>();
        new GoBench().read(f).forEach(r -> values.put(r.cell().metric(), r.value()));
        assertEquals(Map.of("time", 5.0, "alloc-bytes", 0.0, "allocs", 0.0, "drift/op", -3.0), values);
    }

    @Test
    void hyperfineRefusesTwoCommandsOfOneNameNamingBothEntries() throws IOException {
        Path f = tmp.resolve("h.json");
        Files.writeString(
                f,
                "{\"results\": [{\"command\": \"run\", \"times\": [0.4, 0.5]},"
                        + " {\"command\": \"other\", \"times\": [0.1]}, {\"command\": \"run\", \"times\": [0.9, 1.0]}]}");
        BadInputException e = assertThrows(BadInputException.class, () -> new HyperfineJson().read(f));
        assertEquals(
                f + ": results[2]: command 'run' is also the name of results[0], and two commands of one name"
                        + " would pool into one cell; give each its own name (hyperfine -n)",
                e.getMessage());
    }

    @ParameterizedTest(name = "exit code {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "1 | exited with 1 in run 2",
                "null | was ended by a signal in run 2",
                "-1 | exited with -1 in run 2"
            })
    void hyperfineRefusesARunWhoseCommandFailedNamingTheCommandAndTheRun(String code, String said) throws IOException {
        Path f = tmp.resolve("h.json");
        Files.writeString(
                f,
                "{\"results\": [{\"command\": \"run\", \"times\": [0.4, 0.01, 0.5], \"exit_codes\": [0, " + code
                        + ", 0]}]}");
        BadInputException e = assertThrows(BadInputException.class, () -> new HyperfineJson().read(f));
        assertEquals(
                f + ": results[0].exit_codes[1]: command 'run' " + said + " (hyperfine -i goes on past a"
                        + " failure); a run that failed is no measurement of the command",
                e.getMessage());
        Files.writeString(f, "{\"results\": [{\"command\": \"run\", \"times\": [0.4, 0.5], \"exit_codes\": [0, 0]}]}");
        assertEquals(2, new HyperfineJson().read(f).size(), "runs that exited with 0 are measurements");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "a throughput's score | thrpt | ops/ms | \"score\": -5 | [0]: benchmark 'b.M/n=1' (thrpt): \"score\" -5 ops/ms",
                "an iteration of a fork | thrpt | ops/ms | \"rawData\": [[4, 5], [6, -0.5]] | [0].rawData[1][1]: benchmark"
                        + " 'b.M/n=1' (thrpt): an iteration's score -0.5 ops/ms",
                "an average time | avgt | us/op | \"score\": -3 | [0]: benchmark 'b.M/n=1' (avgt): \"score\" -3 us/op",
            })
    void jmhRefusesANegativeScoreInAnyModeNamingTheBenchmark(
            String what, String mode, String unit, String score, String message) throws IOException {
        Path f = tmp.resolve("j.json");
        Files.writeString(
                f,
                "[{\"jmhVersion\": \"1.37\", \"benchmark\": \"b.M\", \"mode\": \"" + mode + "\","
                        + " \"params\": {\"n\": \"1\"}, \"primaryMetric\": {\"scoreUnit\": \"" + unit + "\", " + score
                        + "}}]");
        BadInputException e = assertThrows(BadInputException.class, () -> new JmhJson().read(f));
        assertEquals(f + ": " + message + " is negative, and a JMH score (a rate or a time) cannot be", e.getMessage());
    }

    @Test
    void benchmarkDotNetRefusesABenchmarkWithoutATimeRatherThanReadAZero() throws IOException {
        Path f = tmp.resolve("b.json");
        String start = "{\"HostEnvironmentInfo\": {}, \"Benchmarks\": [{\"FullName\": \"B.Fast\", \"Statistics\": ";
        Files.writeString(f, start + "{\"OriginalValues\": [0, 0, 0], \"Mean\": 0}}]}");
        BadInputException zeros = assertThrows(BadInputException.class, () -> new BenchmarkDotNetJson().read(f));
        assertEquals(
                f + ": Benchmarks[0]: every time of 'B.Fast' is 0 ns/op: BenchmarkDotNet could not tell it from"
                        + " an empty method, so it has no time to compare (a 0 would compare as -100%); give each operation"
                        + " more work",
                zeros.getMessage());
        Files.writeString(f, start + "{\"Mean\": 0}}]}");
        assertEquals(
                zeros.getMessage(),
                assertThrows(BadInputException.class, () -> new BenchmarkDotNetJson().read(f))
                        .getMessage(),
                "a mean of 0, without its values");
        Files.writeString(f, start + "null}]}");
        BadInputException failed = assertThrows(BadInputException.class, () -> new BenchmarkDotNetJson().read(f));
        assertEquals(
                f + ": Benchmarks[0]: 'B.Fast' has no \"Statistics\": BenchmarkDotNet writes none for a"
                        + " benchmark that failed, so it has no time to compare",
                failed.getMessage());
        Files.writeString(
                f, start + "{\"OriginalValues\": [0, 0.2, 0.1]}, \"Memory\": {\"BytesAllocatedPerOperation\": 0}}]}");
        Map<String, List<Double>> kept = new LinkedHashMap<>();
        new BenchmarkDotNetJson()
                .read(f)
                .forEach(r -> kept.computeIfAbsent(r.cell().metric(), k -> new ArrayList<>())
                        .add(r.value()));
        assertEquals(
                Map.of("time", List.of(0.0, 0.2, 0.1), "alloc-bytes", List.of(0.0, 0.0, 0.0)),
                kept,
                "a 0 among other times is kept, and so is an allocation of 0 bytes");
    }

    @Test
    void criterionRefusesSamplesWhoseArraysDifferInLengthNamingBoth() throws IOException {
        Path c = tmp.resolve("c.jsonl");
        String start = "{\"reason\": \"benchmark-complete\", \"id\": \"parse/small\", \"unit\": \"ns\","
                + " \"typical\": {\"estimate\": 150, \"unit\": \"ns\"}, ";
        Files.writeString(
                c,
                "{\"reason\": \"group-complete\"}\n" + start
                        + "\"measured_values\": [1500, 3100, 4400], \"iteration_count\": [10, 20]}\n");
        BadInputException e = assertThrows(BadInputException.class, () -> new CriterionJson().read(c));
        assertEquals(
                c + ": 2: benchmark 'parse/small' has 3 measured values but 2 iteration counts; each sample"
                        + " is one of each",
                e.getMessage());
        Files.writeString(c, start + "\"measured_values\": [1500, 3100]}\n");
        e = assertThrows(BadInputException.class, () -> new CriterionJson().read(c));
        assertTrue(
                e.getMessage().endsWith("has 2 measured values but 0 iteration counts; each sample is one of each"),
                e.getMessage());
        Files.writeString(c, start + "\"measured_values\": [], \"iteration_count\": []}\n");
        assertEquals(
                List.of(150.0),
                new CriterionJson().read(c).stream().map(Reading::value).toList(),
                "no samples at all: the typical estimate, as documented");
    }

    @Test
    void benchmarkJsNamesTheLineOfAResultThatDoesNotParseAndSkipsOtherLines() throws IOException {
        Path f = tmp.resolve("b.txt");
        Files.writeString(
                f,
                "> node bench.js\nsum x 7,420,547 ops/sec ±2.97% (76 runs sampled)\n"
                        + "Fastest is sum\nfib x NaN ops/sec ±0.00% (0 runs sampled)\n");
        BadInputException e = assertThrows(BadInputException.class, () -> new BenchmarkJs().read(f));
        assertEquals(
                f + ": 4: looks like a benchmark.js result but is not one ('NAME x N ops/sec ±P% (R runs"
                        + " sampled)'): fib x NaN ops/sec ±0.00% (0 runs sampled)",
                e.getMessage());
        Files.writeString(f, "sum x 7,420,547 ops/sec ±2.97% (76 runs sampled)\nsum x 7,180,002 ops/sec ±2.1");
        e = assertThrows(BadInputException.class, () -> new BenchmarkJs().read(f));
        assertTrue(e.getMessage().startsWith(f + ": 2: looks like"), "a line cut short: " + e.getMessage());
        Files.writeString(f, "sum x 7,420,547 ops/sec ±2.97% (76 runs sampled)\nFastest is sum\nwarming up 3 ops\n");
        assertEquals(1, new BenchmarkJs().read(f).size(), "a line unlike a result is skipped");
    }

    @Test
    void goRefusesOneUnitTwiceOnALineNamingTheLine() throws IOException {
        Path f = tmp.resolve("bench.txt");
        Files.writeString(f, "BenchmarkA-2  100  5 ns/op\nBenchmarkA-2  100  5 ns/op  8 B/op  7 ns/op\n");
        BadInputException e = assertThrows(BadInputException.class, () -> new GoBench().read(f));
        assertEquals(
                f + ": 2: 'ns/op' twice in: BenchmarkA-2  100  5 ns/op  8 B/op  7 ns/op (a result line has one"
                        + " value per unit)",
                e.getMessage());
        // A name that is blank without a -N suffix the names turn out not to share: read again, to name the cells.
        Files.writeString(
                f, "BenchmarkA  100  5 ns/op\nBenchmark-2  100  5 ns/op\nBenchmarkB  100  5 ns/op  6 ns/op\n");
        e = assertThrows(BadInputException.class, () -> new GoBench().read(f));
        assertEquals(
                f + ": 3: 'ns/op' twice in: BenchmarkB  100  5 ns/op  6 ns/op (a result line has one value per"
                        + " unit)",
                e.getMessage());
    }

    @Test
    void csvLeavesOutAByteOrderMark() throws IOException {
        Path f = tmp.resolve("r.csv");
        Files.writeString(f, "\uFEFFcell,metric,unit,value\na,time,ns,1\n");
        assertEquals("csv", Formats.detect(f).id());
        List<Reading> r = Formats.detect(f).read(f);
        assertEquals(new CellId("a", "time"), r.get(0).cell().id());
        Files.writeString(f, "\uFEFFname,time_ns\na,1\n");
        assertEquals(
                "a",
                new CsvFormat(CsvFormat.Columns.parse("cell=name,value=time_ns,unit=ns"))
                        .read(f)
                        .get(0)
                        .cell()
                        .name(),
                "the first column is 'name', not '\\uFEFFname'");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "cell,value,unit,value | value | 2 and 4",
                "cell,unit,cell,value | cell | 1 and 3",
                "cell,value,unit,unit | unit | 3 and 4"
            })
    void csvRefusesAColumnItReadsThatTheHeaderNamesTwice(String header, String column, String fields)
            throws IOException {
        Path f = tmp.resolve("r.csv");
        Files.writeString(f, header + "\na,1,ns,2\n");
        BadInputException e =
                assertThrows(BadInputException.class, () -> new CsvFormat(CsvFormat.Columns.DEFAULT).read(f));
        assertEquals(
                f + ": 1: column '" + column + "' is in the header twice (fields " + fields + "), and which of"
                        + " the two to read cannot be told",
                e.getMessage());
        Files.writeString(f, "cell,value,unit,note,note\na,1,ns,x,y\n");
        assertEquals(
                1, new CsvFormat(CsvFormat.Columns.DEFAULT).read(f).size(), "a column it does not read may repeat");
    }

    @Test
    void rejectsNonFiniteGoValuesAndNamelessBenchmarks() throws IOException {
        Path f = tmp.resolve("bench.txt");
        Files.writeString(f, "BenchmarkA-2  100  NaN ns/op\n");
        BadInputException e = assertThrows(BadInputException.class, () -> new GoBench().read(f));
        assertTrue(e.getMessage().contains("'NaN' is not a finite number"), e.getMessage());
        Path c = tmp.resolve("c.jsonl");
        Files.writeString(
                c, "{\"reason\": \"benchmark-complete\", \"typical\": {\"estimate\": 1, \"unit\": \"ns\"}}\n");
        BadInputException nameless = assertThrows(BadInputException.class, () -> new CriterionJson().read(c));
        assertTrue(nameless.getMessage().contains("a benchmark without a name"), nameless.getMessage());
    }
}
