package org.perfab.ab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.perfab.exec.Counters;
import org.perfab.exec.Processes;
import org.perfab.failure.BadInputException;

/**
 * Counts each benchmark of a Google Benchmark harness on its own, per operation, under Valgrind's
 * Callgrind, with no change to the benchmarks or to the harness's command.
 *
 * <p>Google Benchmark reads any flag its command line leaves unset from the environment
 * ({@code BENCHMARK_FILTER}, {@code BENCHMARK_LIST_TESTS}, ...), so the harness runs as it is: once,
 * natively, with {@code BENCHMARK_LIST_TESTS=true} to list the benchmarks, then once per benchmark
 * under Callgrind with {@code BENCHMARK_FILTER} naming it alone. Its loop ({@code for (auto _ :
 * state)}) runs between {@code State::StartKeepRunning} and {@code State::FinishKeepRunning}, which
 * the library exports: Callgrind starts a new part of its counts as the first returns and as the
 * second is entered, so the part between them holds the loop's iterations and nothing else (not the
 * process's start, the benchmark's set-up, nor the library's timing and reporting). Google Benchmark
 * sizes its runs itself; the last loop is its reported run, whose iterations its JSON gives
 * ({@code BENCHMARK_OUT}, and {@code $PERFAB_RESULT} for a command that names that instead). That
 * part's counts divided by those iterations is one operation's count.
 *
 * <p>A benchmark of several threads ({@code /threads:N}) runs a loop on each, and is not counted.
 */
final class GoogleBenchmarkCounts implements PerBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long Google Benchmark runs a benchmark under Callgrind, where the harness does not say: in simulated seconds. */
    static final String MIN_TIME = "0.1";

    private static final Pattern PART = Pattern.compile("callgrind\\.out\\.(\\d+)\\.(\\d+)");

    private final List<String> argv;
    private final Optional<Pattern> only;
    private final Duration timeout;
    private List<Benchmark> benchmarks = List.of();
    private final java.util.Set<Path> ready = new java.util.HashSet<>();

    GoogleBenchmarkCounts(List<String> argv, Optional<Pattern> only, Duration timeout) {
        this.argv = List.copyOf(argv);
        this.only = only;
        this.timeout = timeout;
    }

    @Override
    public List<Benchmark> benchmarks() {
        return benchmarks;
    }

    @Override
    public String recipe() {
        return "google benchmark " + String.join(" ", argv) + "; callgrind; BENCHMARK_MIN_TIME " + MIN_TIME;
    }

    /** Returns nothing: the benchmarks are a program the build wrote, whose outputs key the cache. */
    @Override
    public String toolchain(Path tree, Map<String, String> env, Logs logs, Exec exec) {
        return "";
    }

    @Override
    public void prepare(Path tree, Path out, Map<String, String> env, Logs logs, Exec exec)
            throws Failure, IOException, InterruptedException {
        if (!ready.add(tree)) {
            return;
        }
        Map<String, String> list = new LinkedHashMap<>(env);
        list.put("BENCHMARK_LIST_TESTS", "true");
        Processes.Outcome o =
                exec.run(new Processes.Command(argv, tree, list, timeout, logs.out("list"), logs.err("list"), false));
        if (!o.succeeded()) {
            throw new Failure("the harness " + o.failure() + " when asked to list its benchmarks"
                    + " (BENCHMARK_LIST_TESTS=true)");
        }
        List<Benchmark> found = new ArrayList<>();
        for (String line : Files.readAllLines(logs.out("list"), StandardCharsets.UTF_8)) {
            String name = line.strip();
            if (name.isEmpty()
                    || name.contains("/threads:")
                    || only.isPresent() && !only.get().matcher(name).find()) {
                continue;
            }
            found.add(new Benchmark(name, name, 0));
        }
        if (found.isEmpty() && benchmarks.isEmpty()) {
            throw new Failure("the harness listed no benchmark to count"
                    + (only.isPresent() ? " that count.benchmarks " + only.get() + " finds" : "")
                    + " (BENCHMARK_LIST_TESTS=true; benchmarks of several threads are"
                    + " not counted)");
        }
        benchmarks = PerBenchmark.join(benchmarks, found);
    }

    @Override
    public Optional<PerOp> count(
            Benchmark benchmark, Path tree, Map<String, String> env, Path counts, Path vlogs, Logs logs, Exec exec)
            throws Failure, IOException, InterruptedException {
        Path json = counts.resolve("benchmark.json");
        Map<String, String> e = new LinkedHashMap<>(env);
        e.put("BENCHMARK_FILTER", "^" + PerBenchmark.quote(benchmark.name()) + "$");
        e.putIfAbsent("BENCHMARK_MIN_TIME", MIN_TIME);
        e.put("BENCHMARK_OUT", json.toString());
        e.put("BENCHMARK_OUT_FORMAT", "json");
        e.put("PERFAB_RESULT", json.toString());
        List<String> wrapped = new ArrayList<>(List.of(
                Counters.VALGRIND,
                "--tool=callgrind",
                "--cache-sim=yes",
                "--trace-children=yes",
                "--dump-after=*State::StartKeepRunning*",
                "--dump-before=*State::FinishKeepRunning*",
                "--compress-strings=no",
                "--compress-pos=no",
                "--callgrind-out-file=" + counts.resolve("callgrind.out.%p"),
                "--log-file=" + vlogs.resolve("valgrind.%p.log"),
                "--"));
        wrapped.addAll(argv);
        Processes.Outcome o =
                exec.run(new Processes.Command(wrapped, tree, e, timeout, logs.out("count"), logs.err("count"), false));
        if (!o.succeeded()) {
            throw new Failure(benchmark.cell() + " " + o.failure() + " under Valgrind"
                    + Counters.why(vlogs).map(w -> ": " + w).orElse(""));
        }
        long iterations = iterations(json, benchmark);
        if (iterations == 0) {
            return Optional.empty(); // not a benchmark of this side
        }
        Path loop = lastLoop(counts)
                .orElseThrow(() -> new Failure(benchmark.cell() + " ran no loop of"
                        + " State::StartKeepRunning and FinishKeepRunning under Callgrind: a benchmark built against a"
                        + " library of Google Benchmark without its symbols cannot be counted one loop at a time"));
        Counters.Counted c;
        try {
            c = Counters.readCallgrind(loop);
        } catch (IOException ex) {
            throw new Failure(benchmark.cell() + " was not counted: " + ex.getMessage());
        }
        if (c.instructions() <= 0) {
            throw new Failure(benchmark.cell() + "'s loop executed no instructions");
        }
        Map<String, Double> byFunction = new HashMap<>();
        c.byFunction().forEach((f, n) -> {
            if (n > 0) {
                byFunction.put(f, (double) n / iterations);
            }
        });
        return Optional.of(new PerOp(
                (double) c.instructions() / iterations, (double) c.estimatedCycles() / iterations, byFunction));
    }

    /** Returns the iterations of {@code benchmark}'s last run in Google Benchmark's JSON; 0 when it ran none. */
    private static long iterations(Path json, Benchmark benchmark) throws Failure, IOException {
        if (!Files.exists(json)) {
            throw new Failure(
                    benchmark.cell() + ": the harness wrote no JSON to BENCHMARK_OUT or $PERFAB_RESULT (" + json + ")");
        }
        if (Files.size(json) == 0) {
            return 0; // Google Benchmark matched nothing: it opens its output, and writes nothing to it
        }
        JsonNode root;
        try (var in = BadInputException.open(json)) {
            root = JSON.readTree(in);
        } catch (IOException e) {
            throw new Failure(
                    benchmark.cell() + ": Google Benchmark's JSON in " + json + " does not parse: " + e.getMessage());
        }
        long iterations = 0;
        for (JsonNode b : root.path("benchmarks")) {
            String name = b.path("run_name").asText(b.path("name").asText(""));
            if (!name.equals(benchmark.name())) {
                throw new Failure(benchmark.cell() + ": the harness ran " + name + " too; it chooses its benchmarks"
                        + " itself (--benchmark_filter), which counting one at a time needs left to perfab");
            }
            if (!b.path("run_type").asText("iteration").equals("aggregate")) {
                iterations = b.path("iterations").asLong(0);
            }
        }
        return iterations;
    }

    /**
     * Returns the last part of Callgrind's counts that ended as a loop ended (dumped before
     * {@code FinishKeepRunning}), of the process that ran the benchmark; empty when none did.
     */
    private static Optional<Path> lastLoop(Path counts) throws IOException {
        Path last = null;
        long lastPart = -1;
        try (Stream<Path> files = Files.list(counts)) {
            for (Path f : files.toList()) {
                Matcher m = PART.matcher(f.getFileName().toString());
                if (!m.matches() || Long.parseLong(m.group(2)) <= lastPart || !endsALoop(f)) {
                    continue;
                }
                last = f;
                lastPart = Long.parseLong(m.group(2));
            }
        }
        return Optional.ofNullable(last);
    }

    /** Returns whether Callgrind dumped {@code part} as a loop's {@code FinishKeepRunning} was entered. */
    private static boolean endsALoop(Path part) throws IOException {
        try (var lines = Files.lines(part, StandardCharsets.UTF_8)) {
            return lines.limit(40)
                    .anyMatch(l -> l.startsWith("desc: Trigger: --dump-before=") && l.contains("FinishKeepRunning"));
        }
    }
}
