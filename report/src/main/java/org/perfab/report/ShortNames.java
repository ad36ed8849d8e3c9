package org.perfab.report;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.perfab.model.ComparisonTable;

/**
 * Java benchmarks' names as their readers know them. JMH names a benchmark by its method's fully
 * qualified name ({@code org.apache.commons.text.StringSubstitutorBenchmark.replace}), and prints its
 * own table with the package left out where every benchmark shares it and the rest abbreviated to
 * first letters. The tables people read (comment, text, HTML) do the same; the files machines read
 * (JSON, CSV, JUnit) and every filter keep the full name.
 *
 * <p>A table is shortened only when every one of its names is a Java method's qualified name, with
 * perfab's parameters after it ({@code /size=10}), so that no other tool's name (a Go benchmark's
 * {@code 0.5} in a sub-benchmark, a pytest file path) is ever touched; and only when no two rows
 * read alike afterwards.
 */
final class ShortNames {
    /** Lower-case packages, then an upper-case class, then its method: what JMH writes. */
    private static final Pattern PACKAGE = Pattern.compile("[a-z_][A-Za-z0-9_$]*");

    private static final Pattern CLASS = Pattern.compile("[A-Z_$][A-Za-z0-9_$]*");
    private static final Pattern METHOD = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

    private ShortNames() {}

    /** Returns how the names of {@code table}'s rows show in the tables people read. */
    static UnaryOperator<String> of(ComparisonTable table) {
        return of(table.rows().stream().map(r -> r.cell().name()).distinct().toList());
    }

    /** Returns how each of {@code names} shows: shortened together, or every one as it is. */
    static UnaryOperator<String> of(List<String> names) {
        Map<String, String[]> parsed = new HashMap<>();
        for (String name : names) {
            String[] parts = parse(name);
            if (parts == null) {
                return UnaryOperator.identity();
            }
            parsed.put(name, parts);
        }
        if (parsed.isEmpty()) {
            return UnaryOperator.identity();
        }
        int common = commonPackages(parsed.values());
        Map<String, String> abbreviated = shortened(parsed, common, true);
        Map<String, String> shown = distinct(abbreviated) ? abbreviated : shortened(parsed, common, false);
        return name -> shown.getOrDefault(name, name);
    }

    /**
     * Returns the segments of {@code name}'s qualified part, then its parameters as the last element
     * (empty for none); null when it is not a Java method's qualified name with a package.
     */
    private static String[] parse(String name) {
        int slash = name.indexOf('/');
        String qualified = slash < 0 ? name : name.substring(0, slash);
        String params = slash < 0 ? "" : name.substring(slash);
        String[] segments = qualified.split("\\.", -1);
        if (segments.length < 3
                || !METHOD.matcher(segments[segments.length - 1]).matches()
                || !CLASS.matcher(segments[segments.length - 2]).matches()) {
            return null;
        }
        for (int i = 0; i < segments.length - 2; i++) {
            if (!PACKAGE.matcher(segments[i]).matches()) {
                return null;
            }
        }
        String[] parts = java.util.Arrays.copyOf(segments, segments.length + 1);
        parts[segments.length] = params;
        return parts;
    }

    /** Returns how many leading package segments every name shares. */
    private static int commonPackages(Iterable<String[]> names) {
        String[] first = names.iterator().next();
        int common = first.length - 3;
        for (String[] n : names) {
            int packages = n.length - 3;
            int same = 0;
            while (same < Math.min(common, packages) && n[same].equals(first[same])) {
                same++;
            }
            common = same;
        }
        return common;
    }

    /** Returns each name without its first {@code common} packages, the others abbreviated or not. */
    private static Map<String, String> shortened(Map<String, String[]> parsed, int common, boolean abbreviate) {
        Map<String, String> out = new HashMap<>();
        parsed.forEach((name, parts) -> {
            StringBuilder s = new StringBuilder();
            int packages = parts.length - 3;
            for (int i = common; i < packages; i++) {
                s.append(abbreviate ? parts[i].substring(0, 1) : parts[i]).append('.');
            }
            s.append(parts[packages]).append('.').append(parts[packages + 1]).append(parts[packages + 2]);
            out.put(name, s.toString());
        });
        return out;
    }

    private static boolean distinct(Map<String, String> shown) {
        Set<String> seen = new HashSet<>();
        return shown.values().stream().allMatch(seen::add);
    }
}
