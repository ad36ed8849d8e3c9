package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ShortNamesTest {
    private static List<String> shown(String... names) {
        UnaryOperator<String> f = ShortNames.of(List.of(names));
        return List.of(names).stream().map(f).toList();
    }

    @Test
    void theSharedPackageGoesAsInJmhsOwnTable() {
        assertEquals(
                List.of(
                        "StringSubstitutorBenchmark.replace",
                        "StringSubstitutorBenchmark.replace/size=10",
                        "LevenshteinBenchmark.distance/density=0.1"),
                shown(
                        "org.apache.commons.text.StringSubstitutorBenchmark.replace",
                        "org.apache.commons.text.StringSubstitutorBenchmark.replace/size=10",
                        "org.apache.commons.text.LevenshteinBenchmark.distance/density=0.1"));
        assertEquals(List.of("WorkBench.work"), shown("calc.WorkBench.work"));
    }

    @Test
    void packagesThatDifferAreAbbreviatedWhileNoTwoRowsReadAlike() {
        assertEquals(
                List.of("t.Parse.run", "s.Escape.run"),
                shown("org.apache.commons.text.Parse.run", "org.apache.commons.similarity.Escape.run"));
        // text.Parse and tree.Parse would both read t.Parse: neither is abbreviated.
        assertEquals(
                List.of("text.Parse.run", "tree.Parse.run", "similarity.Escape.run"),
                shown("org.example.text.Parse.run", "org.example.tree.Parse.run", "org.example.similarity.Escape.run"));
    }

    @Test
    void otherToolsNamesAreNeverTouched() {
        // One name that is not a Java method's qualified name leaves the whole table as it is.
        List<String> mixed = List.of("org.example.Bench.run", "BenchmarkRank/size=0.5");
        assertEquals(mixed, shown(mixed.toArray(String[]::new)));
        for (String name : List.of(
                "BenchmarkParse/v1.2/fast",
                "benchmarks/test_work.py::test_work",
                "BM_Work/8",
                "Bench.run",
                "org.example.run",
                "group/a.b.C")) {
            assertEquals(List.of(name), shown(name), name);
        }
    }
}
