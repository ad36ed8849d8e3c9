package org.perfab.cli;

import java.io.PrintStream;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import org.perfab.ab.AbRun;
import org.perfab.ab.Engine;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.report.Report;

/**
 * What every command takes from the process it runs in, handed to each command as it is made
 * ({@link Main}'s factory): no command reaches the root command, or another, for it.
 *
 * @param engine what an A/B takes from the machine: the machine itself, but in a test
 * @param env the environment perfab runs in: this process's, but in a test
 * @param clock the wall clock: today's date, a run's timestamps
 * @param terminal whether standard output is a terminal (a table, colours and progress) rather than a
 *     pipe or a file
 */
record Session(Engine engine, Map<String, String> env, Clock clock, boolean terminal) {
    Session {
        Objects.requireNonNull(engine, "engine");
        env = Map.copyOf(env);
        Objects.requireNonNull(clock, "clock");
    }

    /**
     * Returns what an A/B run talks to: progress on {@code err} at {@code level}, this session's
     * environment, clock and engine, and the comment and HTML report of this build of perfab.
     */
    AbRun.Context run(PrintStream err, Progress.Level level) {
        return new AbRun.Context(
                new Progress(err, terminal, level),
                env,
                clock,
                r -> Products.AB.render(report(Report.of(r)), Format.MARKDOWN),
                r -> Products.AB.render(report(Report.of(r)), Format.HTML),
                engine);
    }

    /**
     * Returns {@code r} to render: {@link Report#checked checked} where the environment says
     * {@code PERFAB_STRICT=true}, as the test suite does, so a row the verdict rules must never make
     * fails the command there; as it is elsewhere, where the report says so instead.
     */
    Report report(Report r) {
        return "true".equals(env.get("PERFAB_STRICT")) ? r.checked() : r;
    }
}
