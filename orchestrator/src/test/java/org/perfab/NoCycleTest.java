package org.perfab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
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

/**
 * No package of any module has a class cycle: the classes of a package can be read from the bottom
 * up, and a command line's commands neither reach their root nor call each other (picocli's link
 * from a command to the subcommands it names runs one way). Read from the compiled classes of every
 * module with the JDK's {@code jdeps}, a nested class counted as its top-level class. This module is
 * the top of the reactor, so it sees every module's classes: each located as the build gives them,
 * a folder of classes or a jar.
 */
class NoCycleTest {
    /**
     * The cycles allowed: none. A cycle found is named with its classes; one listed here and no
     * longer found fails too, so that the list cannot outlive its cycle.
     */
    private static final Set<Set<String>> KNOWN = Set.of();

    /** A class of each module, to find the module's classes by: stats, model, report, orchestrator. */
    private static final List<String> MODULES = List.of(
            "org.perfab.stats.Comparison",
            "org.perfab.model.CellId",
            "org.perfab.report.Format",
            "org.perfab.cli.Main");

    private static final Pattern EDGE = Pattern.compile("^\\s+(org\\.perfab\\.\\S+)\\s+->\\s+(org\\.perfab\\.\\S+)\\s");

    @Test
    void noPackageOfAnyModuleHasAClassCycleButThoseStillKnown() throws Exception {
        List<String> args = new ArrayList<>(List.of("-verbose:class", "-filter:none"));
        for (String type : MODULES) {
            args.add(location(type).toString());
        }
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int code = jdeps.run(new PrintWriter(out), new PrintWriter(out), args.toArray(String[]::new));
        assertEquals(0, code, out.toString());
        Map<String, Set<String>> graph = graph(out.toString());
        Set<String> packages = new TreeSet<>();
        graph.keySet().forEach(c -> packages.add(c.substring(0, c.lastIndexOf('.'))));
        assertTrue(
                packages.containsAll(Set.of(
                        "org.perfab.stats",
                        "org.perfab.model",
                        "org.perfab.report",
                        "org.perfab.ab",
                        "org.perfab.cli")),
                "jdeps read the classes of " + packages + " in " + args);
        assertEquals(List.of(), unexpected(cycles(graph), KNOWN));
    }

    /** Returns where the classes of {@code type}'s module are: a folder of classes or a jar. */
    private static Path location(String type) throws ClassNotFoundException, URISyntaxException {
        return Path.of(Class.forName(type)
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    }

    /**
     * Returns what is wrong with the {@code found} cycles against the {@code known} ones: each cycle
     * not known, named with its classes, and each known one no longer found as it was.
     */
    static List<String> unexpected(List<Set<String>> found, Set<Set<String>> known) {
        List<String> wrong = new ArrayList<>();
        for (Set<String> cycle : found) {
            if (!known.contains(cycle)) {
                wrong.add("a class cycle of " + cycle.size() + ": " + new TreeSet<>(cycle));
            }
        }
        for (Set<String> cycle : known) {
            if (!found.contains(cycle)) {
                wrong.add("a known cycle no longer found as listed (remove or correct it in KNOWN): "
                        + new TreeSet<>(cycle));
            }
        }
        return wrong;
    }

    /**
     * Returns the dependencies between top-level classes of one package, for every package, that
     * {@code jdeps} printed, each class by its full name.
     */
    static Map<String, Set<String>> graph(String jdeps) {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String line : jdeps.split("\n")) {
            Matcher m = EDGE.matcher(line);
            if (m.find()) {
                String from = topLevel(m.group(1));
                String to = topLevel(m.group(2));
                graph.computeIfAbsent(from, k -> new TreeSet<>());
                graph.computeIfAbsent(to, k -> new TreeSet<>());
                if (!from.equals(to) && packageOf(from).equals(packageOf(to))) {
                    graph.get(from).add(to);
                }
            }
        }
        return graph;
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }

    private static String topLevel(String className) {
        int nested = className.indexOf('$');
        return nested < 0 ? className : className.substring(0, nested);
    }

    /** Returns every strongly connected set of two classes or more (Tarjan's algorithm), each sorted. */
    static List<Set<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> found = new ArrayList<>();
        int[] next = {0};
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, found, next);
            }
        }
        return found;
    }

    private static void connect(
            String v,
            Map<String, Set<String>> graph,
            Map<String, Integer> index,
            Map<String, Integer> low,
            Deque<String> stack,
            Set<String> onStack,
            List<Set<String>> found,
            int[] next) {
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
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                found.add(component);
            }
        }
    }

    @Test
    void findsACycleWithinAPackageWhereThereIsOne() {
        String jdeps = "   org.perfab.report.A -> org.perfab.report.B$Row   report\n"
                + "   org.perfab.report.B -> org.perfab.report.C   report\n"
                + "   org.perfab.report.C -> org.perfab.report.A   report\n"
                + "   org.perfab.report.A$X -> org.perfab.report.A   report\n"
                + "   org.perfab.report.C -> org.perfab.report.D   report\n"
                + "   org.perfab.cli.E -> org.perfab.report.A   report\n"
                + "   org.perfab.report.D -> org.perfab.cli.E   orchestrator\n";
        assertEquals(
                List.of(Set.of("org.perfab.report.A", "org.perfab.report.B", "org.perfab.report.C")),
                cycles(graph(jdeps)),
                "a cycle through another package is the packages' (LayersTest), not the classes'");
    }

    @Test
    void namesANewCycleAGrownOneAndOneGone() {
        Set<String> known = Set.of("org.perfab.ab.A", "org.perfab.ab.B");
        Set<String> grown = Set.of("org.perfab.ab.A", "org.perfab.ab.B", "org.perfab.ab.C");
        Set<String> other = Set.of("org.perfab.cli.X", "org.perfab.cli.Y");
        assertEquals(List.of(), unexpected(List.of(known), Set.of(known)));
        assertEquals(
                List.of(
                        "a class cycle of 3: [org.perfab.ab.A, org.perfab.ab.B, org.perfab.ab.C]",
                        "a class cycle of 2: [org.perfab.cli.X, org.perfab.cli.Y]",
                        "a known cycle no longer found as listed (remove or correct it in KNOWN): [org.perfab.ab.A, org.perfab.ab.B]"),
                unexpected(List.of(grown, other), Set.of(known)));
    }
}
