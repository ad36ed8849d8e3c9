package org.perfab.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.ab.AbRun;
import org.perfab.demo.DemoRepository;
import org.perfab.failure.BadInputException;
import org.perfab.model.RunResults;
import org.perfab.stats.ThresholdSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code perfab demo}: the embedded default run. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Create a small git project whose feature branch makes one benchmark about 8%%"
                + " slower and another faster, run a real 'perfab ab' of main against it, and print"
                + " the pull-request comment. Needs nothing but Java; takes about a minute."})
final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Where to create the demo project (default: a new temporary folder).")
    Path dir;

    @Option(names = "--trials", paramLabel = "N", defaultValue = "5",
            description = "Counted trials per side (default: ${DEFAULT-VALUE}).")
    int trials;

    @Option(names = "--aa", description = "Run an A/A instead: main against itself, to see the noise floor.")
    boolean aa;

    @Option(names = "--pin", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Pin the trials to CPU 0 with taskset where it exists (default: pin). A shared"
                    + " machine's CPUs are rarely equal, and a trial measures the one it lands on.")
    boolean pin;

    @Option(names = "--create-only", description = "Only create the demo project, and print where it is.")
    boolean createOnly;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path root = dir == null ? Files.createTempDirectory("perfab-demo-") : dir;
        if (Files.exists(root.resolve(".git"))) {
            throw new BadInputException(root + " already holds a git repository; give an empty --dir");
        }
        Path repo = root.resolve("project");
        Path out = root.resolve("perfab-out");
        PrintStream err = new PrintStream(new WriterStream(spec.commandLine().getErr()), true, StandardCharsets.UTF_8);
        if (!createOnly && onPath("java").isEmpty()) {
            throw new BadInputException("the demo's build and harness run 'java' from PATH, and there is none"
                    + (System.getenv("JAVA_HOME") == null ? "" : "; add $JAVA_HOME/bin to PATH"));
        }
        Optional<String> cpus = pin ? onPath("taskset").map(t -> "0") : Optional.empty();
        DemoRepository.create(repo, cpus);
        err.println("perfab: demo project in " + repo + ": main and a feature branch that changes"
                + " src/demo/Subject.java");
        if (createOnly) {
            spec.commandLine().getOut().println(repo);
            spec.commandLine().getOut().flush();
            return ExitCode.OK;
        }
        AbRun.Request request = new AbRun.Request(repo, "main", aa ? "main" : "feature", AbRun.DEFAULT_WORKLOAD,
                Optional.of(trials), 1, out, Optional.empty(), Optional.empty(), ThresholdSettings.NONE,
                false, false, List.of(), false, Optional.empty(), Optional.empty());
        RunResults results = AbRun.run(request, AbCommand.context(err));
        spec.commandLine().getOut().print(Files.readString(out.resolve("comment.md"), StandardCharsets.UTF_8));
        spec.commandLine().getOut().flush();
        RunResults.Timing t = results.timing();
        err.printf(Locale.ROOT, "perfab: %.0f s in all: %.0f s building, %.0f s in trials, %.1f s perfab's own%n",
                t.total(), t.build(), t.trials(), t.overhead() + t.checkout());
        err.println("perfab: the results are in " + out + " (results.json, comment.md, trials.jsonl, logs/)");
        return ExitCode.OK;
    }

    static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
