package org.perfab.ab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perfab.exec.Counters;
import org.perfab.exec.Processes;

/**
 * Counts each benchmark of a {@code go test -bench} harness on its own, per operation, under
 * Valgrind's Cachegrind, with no change to the benchmarks.
 *
 * <p>Each side's test binaries are built once ({@code go test -c}, with the harness's build flags).
 * The benchmarks, sub-benchmarks included, are found by running the binary of the first side built
 * natively for a moment ({@code -test.benchtime 20ms}, three times), which also tells, from the
 * fastest, how many iterations make
 * {@value #TARGET_MILLIS} ms of work: that number, {@code n}, is fixed for the run, on both sides. A
 * benchmark is then counted twice, with {@code -test.benchtime nx} and {@code 2nx}, alone
 * ({@code -test.bench ^BenchmarkName$/^sub$}). Go's set-up, its calibration run of one iteration,
 * the process's start and end, and the benchmark's own set-up are the same in both; their
 * difference, divided by {@code n}, is the count of one operation. So are the counts by function.
 *
 * <p>Counted runs set {@code GOMAXPROCS=1}: under Valgrind, which runs one thread at a time, the
 * runtime's idle processors spin for as long as the simulation takes, and a count with more than
 * one varies by a factor of ten from run to run; with one, the count of an operation is stable to
 * a few parts in a million. Valgrind 3.19 cannot simulate {@code RDTSCP} on some CPUs, which Go's
 * runtime uses to read the clock where the CPU has it: a count that dies on it is retried with
 * {@code GODEBUG=cpu.rdtscp=off}, and the run says so.
 */
final class GoCounts implements PerBenchmark {
    /**
     * How long, natively, the iterations whose counts are told apart take: enough for a count's noise
     * to vanish. At 5 ms a count's spread stays under 0.04% on a quiet machine
     * (scripts/bench/time-to-verdict's package: 0.007% at 20 ms, 0.03% at 5 ms, 0.06% at 2 ms), and
     * under 0.14% with three other jobs busy on its two cores (Go's runtime does more of its own
     * work in a stretched simulation), a twentieth of the 3% bar, while the two runs under Valgrind,
     * whose start costs about 0.8 s whatever n is, take 0.9 s in place of 1.2-1.6 s.
     */
    static final long TARGET_MILLIS = 5;
    /** The most iterations a benchmark is counted over. */
    static final long MAX_ITERATIONS = 100_000_000L;
    /** Go's flags that take a value, which go test passes to the test binary. */
    private static final Set<String> TEST_VALUE_FLAGS = Set.of(
            "bench",
            "benchtime",
            "count",
            "cpu",
            "run",
            "skip",
            "timeout",
            "parallel",
            "shuffle",
            "list",
            "fuzz",
            "fuzztime",
            "fuzzminimizetime",
            "blockprofile",
            "blockprofilerate",
            "coverprofile",
            "cpuprofile",
            "memprofile",
            "memprofilerate",
            "mutexprofile",
            "mutexprofilefraction",
            "outputdir",
            "trace",
            "vet",
            "exec",
            "o");
    /** Go's boolean flags of a test run, which counting has no use for. */
    private static final Set<String> TEST_FLAGS = Set.of("benchmem", "v", "failfast", "json", "cover", "short");
    /** Go's build flags that take a value, which the test binary is built with. */
    private static final Set<String> BUILD_VALUE_FLAGS = Set.of(
            "tags",
            "ldflags",
            "gcflags",
            "asmflags",
            "mod",
            "modfile",
            "p",
            "pkgdir",
            "buildmode",
            "compiler",
            "gccgoflags",
            "installsuffix",
            "overlay",
            "pgo",
            "toolexec",
            "covermode",
            "coverpkg");
    /** Go's boolean build flags. */
    private static final Set<String> BUILD_FLAGS =
            Set.of("race", "msan", "asan", "trimpath", "a", "linkshared", "buildvcs", "work", "x", "n");

    private static final Pattern RESULT = Pattern.compile("^(Benchmark\\S+)\\s+(\\d+)\\s+([0-9.e+]+) ns/op\\b.*$");

    /** A test binary of one side: its package's import path, the folder it runs in, the binary. */
    record Binary(String importPath, Path dir, Path binary) {}

    private final List<String> go;
    private final List<String> buildFlags = new ArrayList<>();
    private final List<String> packages = new ArrayList<>();
    private final List<String> binaryArgs = new ArrayList<>();
    private final String bench;
    private final Optional<Pattern> only;
    private final Consumer<String> notes;
    private final Duration timeout;
    /** Each side's test binaries, by the side's tree. */
    private final Map<Path, List<Binary>> binaries = new HashMap<>();
    /** The package of each benchmark, by its name. */
    private final Map<String, String> packageOf = new HashMap<>();
    /** The benchmarks of the sides readied so far; empty until then. */
    private List<Benchmark> benchmarks = List.of();
    /** The iterations to count benchmarks over, by name, where the count cache chose them. */
    private Map<String, Long> preferred = Map.of();
    /** Whether counted runs tell Go's runtime not to read the clock with RDTSCP; benchmarks are counted at once. */
    private volatile boolean noRdtscp;

    /**
     * A counter of the benchmarks of {@code argv}, go test itself (see {@link GoTool#counter}).
     *
     * @param only the benchmarks to count, of those {@code -bench} runs, by a search in their names
     * @param timeout how long one of its commands may take
     * @throws IllegalArgumentException when it has no {@code -bench}, or a flag perfab cannot carry
     *     into the counted runs
     */
    GoCounts(List<String> argv, Optional<Pattern> only, Duration timeout, Consumer<String> notes) {
        this.only = only;
        this.timeout = timeout;
        this.notes = notes;
        this.go = List.of(argv.get(0));
        String pattern = null;
        boolean test = false;
        for (int i = 2; i < argv.size(); i++) {
            String a = argv.get(i);
            if (a.equals("-args") || a.equals("--args")) {
                binaryArgs.addAll(argv.subList(i + 1, argv.size()));
                break;
            }
            if (!a.startsWith("-") || a.equals("-")) {
                packages.add(a);
                continue;
            }
            String flag = a.replaceFirst("^--?", "");
            int eq = flag.indexOf('=');
            String name = eq < 0 ? flag : flag.substring(0, eq);
            name = name.startsWith("test.") ? name.substring(5) : name;
            boolean valued = TEST_VALUE_FLAGS.contains(name) || BUILD_VALUE_FLAGS.contains(name);
            String value = eq >= 0 ? flag.substring(eq + 1) : null;
            if (valued && value == null) {
                if (i + 1 >= argv.size()) {
                    throw new IllegalArgumentException("go test flag " + a + " needs a value");
                }
                value = argv.get(++i);
            }
            if (name.equals("bench")) {
                pattern = value;
            } else if (name.equals("short")) {
                test = true;
            } else if (BUILD_VALUE_FLAGS.contains(name)) {
                buildFlags.add("-" + name + "=" + value);
            } else if (BUILD_FLAGS.contains(name)) {
                buildFlags.add(a);
            } else if (!TEST_VALUE_FLAGS.contains(name) && !TEST_FLAGS.contains(name)) {
                throw new IllegalArgumentException("go test flag " + a + " is not one perfab knows how to carry"
                        + " into the counted runs of each benchmark");
            }
        }
        if (pattern == null) {
            throw new IllegalArgumentException("the harness runs no benchmarks: go test needs -bench PATTERN");
        }
        if (test) {
            binaryArgs.add(0, "-test.short");
        }
        if (packages.isEmpty()) {
            packages.add(".");
        }
        this.bench = pattern;
    }

    @Override
    public List<Benchmark> benchmarks() {
        return benchmarks;
    }

    @Override
    public String recipe() {
        return "go test -c " + String.join(" ", buildFlags) + "; packages " + String.join(" ", packages) + "; args "
                + String.join(" ", binaryArgs) + "; n and 2n iterations, GOMAXPROCS=1";
    }

    /** Returns go's version and target in {@code tree}, where a go.mod's toolchain line may choose another go. */
    @Override
    public String toolchain(Path tree, Map<String, String> env, Logs logs, Exec exec)
            throws IOException, InterruptedException {
        List<String> c = new ArrayList<>(go);
        c.addAll(List.of("env", "GOVERSION", "GOARCH", "GOAMD64", "GOEXPERIMENT", "CGO_ENABLED", "CC", "GOFLAGS"));
        Processes.Outcome o =
                exec.run(new Processes.Command(c, tree, env, timeout, logs.out("go-env"), logs.err("go-env"), false));
        return o.succeeded()
                ? String.join(" ", Files.readAllLines(logs.out("go-env"), StandardCharsets.UTF_8))
                : "unknown go";
    }

    @Override
    public void prefer(Map<String, Long> iterations) {
        preferred = Map.copyOf(iterations);
    }

    /** Builds the side's test binaries into {@code out}, and finds their benchmarks, natively. */
    @Override
    public void prepare(Path tree, Path out, Map<String, String> env, Logs logs, Exec exec)
            throws Failure, IOException, InterruptedException {
        if (binaries.containsKey(tree)) {
            return;
        }
        List<Binary> bins = build(tree, out, env, logs, exec);
        binaries.put(tree, bins);
        List<Benchmark> all = PerBenchmark.join(benchmarks, find(bins, env, logs, exec));
        if (all.isEmpty()) {
            throw new Failure("-bench " + bench + (only.isPresent() ? " and count.benchmarks " + only.get() : "")
                    + " select no benchmark");
        }
        benchmarks = all;
    }

    private List<Binary> build(Path tree, Path out, Map<String, String> env, Logs logs, Exec exec)
            throws Failure, IOException, InterruptedException {
        List<String> list = new ArrayList<>(go);
        list.addAll(List.of("list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}"));
        list.addAll(buildFlags.stream().filter(f -> !f.startsWith("-cover")).toList());
        list.addAll(packages);
        Processes.Outcome o = exec.run(
                new Processes.Command(list, tree, env, timeout, logs.out("go-list"), logs.err("go-list"), false));
        if (!o.succeeded()) {
            throw new Failure("go list " + String.join(" ", packages) + " " + o.failure());
        }
        List<Binary> built = new ArrayList<>();
        Path dir = Files.createDirectories(out.resolve("perfab-go-test"));
        for (String line : Files.readAllLines(logs.out("go-list"), StandardCharsets.UTF_8)) {
            String[] f = line.split("\t");
            if (f.length < 4 || f[2].equals("0") && f[3].equals("0")) {
                continue; // a package without tests has no benchmarks
            }
            Path binary = dir.resolve(built.size() + ".test");
            List<String> c = new ArrayList<>(go);
            c.addAll(List.of("test", "-c", "-o", binary.toString()));
            c.addAll(buildFlags);
            c.add(f[0]);
            Processes.Outcome b = exec.run(new Processes.Command(
                    c,
                    tree,
                    env,
                    timeout,
                    logs.out("go-test-c-" + built.size()),
                    logs.err("go-test-c-" + built.size()),
                    false));
            if (!b.succeeded()) {
                throw new Failure("go test -c " + f[0] + " " + b.failure());
            }
            if (Files.exists(binary)) {
                built.add(new Binary(f[0], Path.of(f[1]), binary));
            }
        }
        if (built.isEmpty()) {
            throw new Failure("go test found no package with tests in " + String.join(" ", packages));
        }
        return built;
    }

    /** Runs each binary natively for a moment: its benchmarks, and the iterations of each that make its target. */
    private List<Benchmark> find(List<Binary> bins, Map<String, String> env, Logs logs, Exec exec)
            throws Failure, IOException, InterruptedException {
        List<Benchmark> found = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        Map<String, String> one = new LinkedHashMap<>(env);
        one.put("GOMAXPROCS", "1");
        for (int p = 0; p < bins.size(); p++) {
            Binary b = bins.get(p);
            List<String> c = new ArrayList<>(List.of(
                    b.binary().toString(),
                    "-test.run",
                    "^$",
                    "-test.bench",
                    bench,
                    "-test.benchtime",
                    "20ms",
                    "-test.count",
                    "3"));
            c.addAll(binaryArgs);
            String part = "go-bench-find-" + p;
            Processes.Outcome o =
                    exec.run(new Processes.Command(c, b.dir(), one, timeout, logs.out(part), logs.err(part), false));
            if (!o.succeeded()) {
                throw new Failure(
                        "the benchmarks of " + b.importPath() + " " + o.failure() + " when run once to find them");
            }
            // The fastest of three runs: a busy machine only ever slows one.
            Map<String, Double> fastest = new LinkedHashMap<>();
            for (String line : Files.readAllLines(logs.out(part), StandardCharsets.UTF_8)) {
                Matcher m = RESULT.matcher(line.strip());
                if (m.matches()) {
                    fastest.merge(m.group(1), Double.parseDouble(m.group(3)), Math::min);
                }
            }
            for (Map.Entry<String, Double> e : fastest.entrySet()) {
                String name = e.getKey();
                if (only.isPresent()
                        && !only.get()
                                .matcher(name.substring("Benchmark".length()))
                                .find()) {
                    continue;
                }
                packageOf.putIfAbsent(name, b.importPath());
                String other = seen.putIfAbsent(name, b.importPath());
                if (other != null) {
                    throw new Failure(name + " is a benchmark of both " + other + " and " + b.importPath()
                            + ": count one package at a time");
                }
                double nanos = e.getValue();
                long n = nanos > 0 ? Math.round(TARGET_MILLIS * 1e6 / nanos) : MAX_ITERATIONS;
                n = preferred.getOrDefault(name, Math.max(2, Math.min(MAX_ITERATIONS, n)));
                found.add(new Benchmark(name, name.substring("Benchmark".length()), n));
            }
        }
        return found;
    }

    /**
     * Counts {@code benchmark} on the side of {@code tree}: {@code n} and {@code 2n} iterations
     * under Cachegrind, their files in {@code counts} and Valgrind's logs in {@code vlogs}.
     */
    @Override
    public Optional<PerOp> count(
            Benchmark benchmark, Path tree, Map<String, String> env, Path counts, Path vlogs, Logs logs, Exec exec)
            throws Failure, IOException, InterruptedException {
        Optional<Binary> has = binaries.get(tree).stream()
                .filter(b -> b.importPath().equals(packageOf.get(benchmark.name())))
                .findFirst();
        if (has.isEmpty()) {
            return Optional.empty(); // its package has no tests on this side
        }
        Binary bin = has.get();
        Counters.Counted[] c = new Counters.Counted[2];
        for (int k = 0; k < 2; k++) {
            long n = benchmark.iterations() * (k + 1);
            Path into = Files.createDirectories(counts.resolve(Long.toString(n)));
            Path vlog = Files.createDirectories(vlogs.resolve(Long.toString(n)));
            List<String> argv = new ArrayList<>(List.of(
                    bin.binary().toString(),
                    "-test.run",
                    "^$",
                    "-test.bench",
                    filter(benchmark.name()),
                    "-test.benchtime",
                    n + "x",
                    "-test.count",
                    "1"));
            argv.addAll(binaryArgs);
            String part = k == 0 ? "n" : "2n";
            Processes.Outcome o = counted(argv, bin.dir(), env, into, vlog, logs, part, exec);
            if (!o.succeeded() && rdtscp(vlog)) {
                noRdtscp();
                clear(into);
                clear(vlog);
                o = counted(argv, bin.dir(), env, into, vlog, logs, part, exec);
            }
            if (!o.succeeded()) {
                throw new Failure(benchmark.cell() + " " + o.failure() + " under Valgrind"
                        + Counters.why(vlog).map(w -> ": " + w).orElse(""));
            }
            if (k == 0 && !ran(logs.out(part), benchmark.name(), -1)) {
                return Optional.empty(); // not a benchmark of this side
            }
            if (!ran(logs.out(part), benchmark.name(), n)) {
                throw new Failure(benchmark.cell() + " did not run " + n + " iterations under Valgrind (its output"
                        + " is in " + logs.out(part) + ")");
            }
            try {
                c[k] = Counters.read(into);
            } catch (IOException e) {
                throw new Failure(benchmark.cell() + " was not counted: " + e.getMessage());
            }
        }
        long n = benchmark.iterations();
        long instructions = c[1].instructions() - c[0].instructions();
        if (instructions <= 0) {
            throw new Failure(benchmark.cell() + " executed no more instructions over " + 2 * n + " iterations than"
                    + " over " + n + ": its loop does not run b.N times");
        }
        Map<String, Long> grew = new HashMap<>(c[1].byFunction());
        c[0].byFunction().forEach((f, k) -> grew.merge(f, -k, Long::sum));
        Map<String, Double> byFunction = new HashMap<>();
        grew.forEach((f, k) -> {
            if (k > 0) {
                byFunction.put(f, (double) k / n);
            }
        });
        return Optional.of(new PerOp(
                (double) instructions / n, (double) (c[1].estimatedCycles() - c[0].estimatedCycles()) / n, byFunction));
    }

    /** Tells the counted runs from now on not to use RDTSCP, and says so once. */
    private synchronized void noRdtscp() {
        if (!noRdtscp) {
            noRdtscp = true;
            notes.accept("Valgrind cannot simulate RDTSCP on this CPU, which Go's runtime reads its clock with:"
                    + " counted runs of go tell it not to (GODEBUG=cpu.rdtscp=off)");
        }
    }

    private Processes.Outcome counted(
            List<String> argv,
            Path dir,
            Map<String, String> env,
            Path into,
            Path vlog,
            Logs logs,
            String part,
            Exec exec)
            throws InterruptedException {
        Map<String, String> e = new LinkedHashMap<>(env);
        e.put("GOMAXPROCS", "1");
        if (noRdtscp) {
            String d = e.getOrDefault("GODEBUG", "");
            e.put("GODEBUG", d.isEmpty() ? "cpu.rdtscp=off" : d + ",cpu.rdtscp=off");
        }
        return exec.run(new Processes.Command(
                Counters.cachegrind(into, vlog, argv), dir, e, timeout, logs.out(part), logs.err(part), false));
    }

    /** Returns whether Valgrind's logs in {@code vlog} say it met {@code RDTSCP}, which it cannot simulate here. */
    private static boolean rdtscp(Path vlog) throws IOException {
        try (var files = Files.list(vlog)) {
            for (Path f : files.toList()) {
                if (Files.readString(f, StandardCharsets.ISO_8859_1)
                        .contains("unhandled instruction bytes: 0xF 0x1 0xF9")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void clear(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
    }

    /** Returns whether go's output in {@code out} reports {@code name} run {@code n} times (any number, for -1). */
    private static boolean ran(Path out, String name, long n) throws IOException {
        for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            Matcher m = RESULT.matcher(line.strip());
            if (m.matches() && m.group(1).equals(name) && (n < 0 || m.group(2).equals(Long.toString(n)))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns the {@code -test.bench} filter that selects {@code name} alone: go splits the filter
     * at each {@code /} and matches each level of a name by its part.
     */
    static String filter(String name) {
        List<String> parts = new ArrayList<>();
        for (String part : name.split("/", -1)) {
            parts.add("^" + PerBenchmark.quote(part) + "$");
        }
        return String.join("/", parts);
    }
}
