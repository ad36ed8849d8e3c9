package org.perfab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The orchestrator's packages form the stack docs/development.md draws, read from the compiled
 * classes with the JDK's {@code jdeps}: a package uses only packages below it, and only the command
 * line renders (uses the report module). A new package must take its place here and in the docs.
 */
class LayersTest {
    /** Each package's place in the stack, from the bottom: a package may use those of lower places. */
    private static final Map<String, Integer> PLACE = Map.ofEntries(
            Map.entry("failure", 0),
            Map.entry("ingest", 1),
            Map.entry("workload", 2),
            Map.entry("git", 2),
            Map.entry("exec", 2),
            Map.entry("ab", 3),
            Map.entry("compare", 4),
            Map.entry("series", 4),
            Map.entry("baseline", 4),
            Map.entry("bisect", 4),
            Map.entry("demo", 4),
            Map.entry("calibrate", 5),
            Map.entry("cli", 6));

    /** The packages that may render: the command line alone. */
    private static final Set<String> RENDERS = Set.of("cli");

    private static final Pattern EDGE = Pattern.compile(
            "^\\s+org\\.perfab\\.(\\w+)(?:\\.[\\w.]+)?\\s+->\\s+org\\.perfab\\.(\\w+)(?:\\.[\\w.]+)?\\s",
            Pattern.MULTILINE);

    @Test
    void eachPackageUsesOnlyThoseBelowItAndOnlyTheCommandLineRenders() {
        Path classes = Path.of("target", "classes");
        assertTrue(Files.isDirectory(classes.resolve("org/perfab/cli")), "compiled classes in " + classes);
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int code = jdeps.run(
                new PrintWriter(out), new PrintWriter(out), "-verbose:package", "-filter:none", classes.toString());
        assertEquals(0, code, out.toString());
        Set<String> seen = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        Matcher m = EDGE.matcher(out.toString());
        while (m.find()) {
            String from = m.group(1);
            String to = m.group(2);
            seen.add(from);
            if (!PLACE.containsKey(from)) {
                wrong.add("org.perfab." + from + " has no place in the stack");
            } else if (to.equals("report") && !RENDERS.contains(from)) {
                wrong.add(from + " -> report: only " + RENDERS + " renders");
            } else if (PLACE.containsKey(to) && !from.equals(to) && PLACE.get(to) >= PLACE.get(from)) {
                wrong.add(from + " -> " + to + ": " + to + " is not below " + from);
            }
        }
        assertTrue(seen.containsAll(Set.of("ab", "cli", "series", "baseline", "calibrate")), "jdeps named " + seen);
        assertEquals(List.of(), wrong.stream().distinct().sorted().toList());
    }
}
