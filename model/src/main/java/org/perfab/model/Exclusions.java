package org.perfab.model;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Benchmarks left out of a baseline, by name prefix. Every prefix that matches a name is live, not
 * only the first: when one prefix is a prefix of another ({@code BenchmarkSuite} and
 * {@code BenchmarkSuiteCompile}), both are filtering, and neither may be reported stale.
 *
 * @param prefixes the prefixes, each non-empty
 */
public record Exclusions(List<String> prefixes) {
    public Exclusions {
        prefixes = List.copyOf(prefixes);
        for (String p : prefixes) {
            Objects.requireNonNull(p, "prefix");
            if (p.isEmpty()) {
                throw new IllegalArgumentException("an empty exclusion prefix would exclude every benchmark");
            }
        }
    }

    /** No exclusions. */
    public static Exclusions none() {
        return new Exclusions(List.of());
    }

    /**
     * Returns the exclusions of a file's text: a prefix per line; blank lines and lines starting
     * with {@code #} are skipped, and each line is trimmed.
     */
    public static Exclusions parse(String text) {
        return new Exclusions(text.lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .distinct()
                .toList());
    }

    /** Returns this and {@code more}, without repeats. */
    public Exclusions and(Exclusions more) {
        return new Exclusions(Stream.concat(prefixes.stream(), more.prefixes().stream())
                .distinct()
                .toList());
    }

    /** Returns whether some prefix matches {@code name}. */
    public boolean excludes(String name) {
        return prefixes.stream().anyMatch(name::startsWith);
    }

    /** Returns the prefixes that match one of {@code names} or more, in order. */
    public List<String> live(Collection<String> names) {
        return prefixes.stream()
                .filter(p -> names.stream().anyMatch(n -> n.startsWith(p)))
                .toList();
    }

    /** Returns the prefixes that match none of {@code names}, in order. */
    public List<String> stale(Collection<String> names) {
        List<String> live = live(names);
        return prefixes.stream().filter(p -> !live.contains(p)).toList();
    }
}
