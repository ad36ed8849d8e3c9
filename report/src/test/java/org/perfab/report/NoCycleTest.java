package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.perfab.stats.Comparison;

/**
 * The report and stats modules have no class cycle: no renderer calls another, and the shared
 * wording they use depends on none of them; no statistical test knows the type that names it, and
 * the settings of the verdict rules know nothing of the comparisons they judge. Read from the
 * compiled classes with the JDK's {@code jdeps}, a nested class counted as its top-level class.
 */
class NoCycleTest {
    private static final String REPORT = "org.perfab.report";
    private static final String STATS = "org.perfab.stats";

    @Test
    void reportClassesFormNoCycle() {
        Path classes = Path.of("target", "classes");
        assertTrue(Files.isDirectory(classes.resolve("org/perfab/report")), "compiled classes in " + classes);
        assertNoCycle(classes, REPORT, 20);
    }

    /** The stats classes this module is built against: the module's classes, or its jar, in this build. */
    @Test
    void statsClassesFormNoCycle() throws URISyntaxException {
        Path classes = Path.of(Comparison.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertNoCycle(classes, STATS, 20);
    }

    private static void assertNoCycle(Path classes, String pkg, int least) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int code = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:class", "-filter:none",
                classes.toString());
        assertEquals(0, code, out.toString());
        Map<String, Set<String>> graph = graph(out.toString(), pkg);
        assertTrue(graph.size() > least, "jdeps named the classes of " + pkg + " in " + classes + ": " + graph.keySet());
        assertEquals(List.of(), cycles(graph), "class cycles in " + pkg + " (" + classes + ")");
    }

    /**
     * Returns the dependencies between top-level classes of the package {@code pkg} that
     * {@code jdeps} printed, named without the package.
     */
    static Map<String, Set<String>> graph(String jdeps, String pkg) {
        String quoted = Pattern.quote(pkg + ".");
        Pattern edge = Pattern.compile("^\\s+(" + quoted + "\\S+)\\s+->\\s+(" + quoted + "\\S+)\\s");
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String line : jdeps.split("\n")) {
            Matcher m = edge.matcher(line);
            if (m.find()) {
                String from = topLevel(m.group(1), pkg);
                String to = topLevel(m.group(2), pkg);
                graph.computeIfAbsent(from, k -> new TreeSet<>());
                graph.computeIfAbsent(to, k -> new TreeSet<>());
                if (!from.equals(to)) {
                    graph.get(from).add(to);
                }
            }
        }
        return graph;
    }

    private static String topLevel(String className, String pkg) {
        String simple = className.substring(pkg.length() + 1);
        int nested = simple.indexOf('$');
        return nested < 0 ? simple : simple.substring(0, nested);
    }

    /** Returns every strongly connected set of two classes or more (Tarjan's algorithm), each sorted. */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<List<String>> found = new ArrayList<>();
        int[] next = {0};
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, found, next);
            }
        }
        return found;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<List<String>> found, int[] next) {
        index.put(v, next[0]);
        low.put(v, next[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, found, next);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                component.sort(null);
                found.add(component);
            }
        }
    }

    @Test
    void findsACycleWhereThereIsOne() {
        String jdeps = "   org.perfab.report.A -> org.perfab.report.B$Row   report\n"
                + "   org.perfab.report.B -> org.perfab.report.C   report\n"
                + "   org.perfab.report.C -> org.perfab.report.A   report\n"
                + "   org.perfab.report.A$X -> org.perfab.report.A   report\n"
                + "   org.perfab.report.C -> org.perfab.report.D   report\n";
        assertEquals(List.of(List.of("A", "B", "C")), cycles(graph(jdeps, REPORT)));
        assertEquals(List.of(), cycles(graph(jdeps, STATS)), "another package's classes are not this one's");
    }
}
