package org.perfab.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.perfab.ab.Events;
import org.perfab.model.Side;
import org.perfab.report.Marks;
import org.perfab.report.Spans;
import org.perfab.report.Untrusted;

/**
 * A run's progress on standard error: its notes, its first estimate of its length, one line per
 * trial (side, trial i/N, its time, elapsed, what is left until the look it runs toward and at
 * most), a line after each look that leaves cells open, and a line that redraws in place while a
 * trial runs when standard error is a terminal. Notes, statuses and cell names may quote a pull
 * request (paths, harness output): they are shown on one line, without control characters, and
 * bounded. The figures are the run's (see {@link Events.Estimate}); this only words them.
 */
final class Progress implements Events {
    /** How much a run says as it goes. */
    enum Level {
        /** Nothing but errors. */
        QUIET,
        /** Notes, builds and one line per trial. */
        NORMAL,
        /** Also each trial's commands, their folders and their logs. */
        VERBOSE
    }

    /** The longest status shown after a trial. */
    private static final int TEXT_LENGTH = 300;
    /** The longest note shown. */
    private static final int NOTE_LENGTH = 2000;

    /** The most open cells a line names; the rest are counted. */
    private static final int NAMED = 5;

    private final PrintStream err;
    private final boolean live;
    private final Level level;
    private final long start = System.nanoTime();
    private int total;
    private int done;
    /** What is left of the run, as the last trial priced it; null before any. */
    private Events.Estimate left;

    /**
     * Progress on {@code err}, redrawn in place when {@code live} (a terminal), saying as much as
     * {@code level} asks.
     */
    Progress(PrintStream err, boolean live, Level level) {
        this.err = err;
        this.live = live && level != Level.QUIET;
        this.level = level;
    }

    @Override
    public void note(String text) {
        if (level == Level.QUIET) {
            return;
        }
        clear();
        err.println("perfab: " + Untrusted.plain(text, NOTE_LENGTH));
    }

    @Override
    public void planned(int total, int done) {
        this.total = total;
        this.done = done;
    }

    @Override
    public void starting(Side side, boolean warmup, int trial, int ofSide) {
        if (live) {
            err.print("\r\u001b[2K" + line(side, warmup, trial, ofSide, "running", 1));
            err.flush();
        }
    }

    @Override
    public void command(String what) {
        if (level == Level.VERBOSE) {
            clear();
            err.println("perfab: " + Untrusted.plain(what, NOTE_LENGTH));
        }
    }

    @Override
    public void finished(Side side, boolean warmup, int trial, int ofSide, double seconds, String status) {
        done++;
        if (level == Level.QUIET) {
            return;
        }
        clear();
        err.println(line(
                side,
                warmup,
                trial,
                ofSide,
                String.format(Locale.ROOT, "%.2fs %s", seconds, Untrusted.plain(status, TEXT_LENGTH)),
                0));
    }

    private String line(Side side, boolean warmup, int trial, int ofSide, String what, int running) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        return String.format(
                Locale.ROOT,
                "perfab: [%" + Integer.toString(total).length() + "d/%d] %-4s %s %d/%d  %s  elapsed %s  eta %s",
                Math.min(done + running, total),
                total,
                side.id(),
                warmup ? "warm-up" : "trial",
                trial + 1,
                ofSide,
                what,
                clock(elapsed),
                eta(left));
    }

    /**
     * Returns what is left of a run, for its trial line: {@code 1:10 (look 1), at most 6:40}, the
     * look's alone when it is the last; {@code ?} before a trial prices it.
     */
    static String eta(Events.Estimate e) {
        if (e == null || !e.priced()) {
            return "?";
        }
        return e.look() == e.looks()
                ? clock(e.lookSeconds())
                : clock(e.lookSeconds()) + " (look " + e.look() + "), at most " + clock(e.mostSeconds());
    }

    @Override
    public void remaining(Events.Estimate estimate) {
        left = estimate;
    }

    @Override
    public void estimated(Events.Estimate e) {
        left = e;
        note("estimate: " + estimate(e));
    }

    /**
     * Returns the first estimate of a run in words: {@code 2 min 30 s for look 1 (4 trials a side,
     * 18 s a trial pair), at most 9 min with every later look (to 20 trials a side)}.
     */
    static String estimate(Events.Estimate e) {
        String pair = span(e.pairSeconds()) + " a trial pair"
                + e.counting()
                        .map(c -> ": " + c.benchmarks()
                                + " benchmark" + plural(c.benchmarks()) + " counted " + c.workers() + " at a time, "
                                + span(c.benchmarkSeconds()) + " each")
                        .orElse("");
        if (e.looks() == 1) {
            return span(e.lookSeconds()) + " for the " + e.trials() + " trials a side (" + pair + ")";
        }
        return span(e.lookSeconds()) + " for look " + e.look() + " (" + e.trials() + " trials a side, " + pair + ")"
                + (e.look() == e.looks()
                        ? ""
                        : ", at most " + span(e.mostSeconds()) + " with every later look (to " + e.most()
                                + " trials a side)");
    }

    @Override
    public void looked(Events.Look look) {
        note(decided(look) + ", the next look runs " + look.benchmarks() + " benchmark" + plural(look.benchmarks())
                + ", " + look.trials() + " more trial" + plural(look.trials()) + " a side"
                + (Double.isNaN(look.nextSeconds()) ? "" : ", about " + span(look.nextSeconds())));
    }

    @Override
    public void overBudget(Events.Look look, Duration budget, double spentSeconds, Duration enough) {
        String next = "the next look (" + look.trials() + " trial" + plural(look.trials()) + " a side of "
                + look.benchmarks() + " open benchmark" + plural(look.benchmarks()) + ")";
        note(decided(look) + "; " + next
                + (Double.isNaN(look.nextSeconds())
                        ? " would pass"
                        : " would take about " + span(look.nextSeconds()) + ", past")
                + " --budget " + option(budget) + " ("
                + span(spentSeconds) + " spent): stopped; give --budget " + option(enough) + " to let it run");
    }

    /**
     * Returns what a look decided: {@code look 1 of at most 4: 27 of 29 cells decided (1 🔴, 26 ✅);
     * 2 open (a time, b time)}.
     */
    private static String decided(Events.Look look) {
        int decided =
                look.decided().values().stream().mapToInt(Integer::intValue).sum();
        StringBuilder s = new StringBuilder("look " + look.look() + " of at most " + look.looks() + ": " + decided
                + " of " + look.cells() + " cell" + plural(look.cells()) + " decided");
        if (decided > 0) {
            List<String> marks = new ArrayList<>();
            look.decided().forEach((v, n) -> marks.add(n + " " + Marks.of(v)));
            s.append(" (").append(String.join(", ", marks)).append(')');
        }
        List<String> named = look.open().stream()
                .limit(NAMED)
                .map(c -> Untrusted.plain(c.name() + " " + c.metric(), TEXT_LENGTH))
                .toList();
        int more = look.open().size() - named.size();
        return s.append("; ")
                .append(look.open().size())
                .append(" open (")
                .append(String.join(", ", named))
                .append(more > 0 ? " and " + more + " more" : "")
                .append(')')
                .toString();
    }

    /** Redraws the building line each second while a build runs and standard error is a terminal. */
    private ScheduledExecutorService ticker;

    private long buildStart;

    @Override
    public synchronized void building(String what) {
        if (level == Level.QUIET) {
            return;
        }
        clear();
        err.println("perfab: building " + Untrusted.plain(what, TEXT_LENGTH));
        buildStart = System.nanoTime();
        if (live) {
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "perfab-build-clock");
                t.setDaemon(true);
                return t;
            });
            ticker.scheduleAtFixedRate(() -> tick(what), 1, 1, TimeUnit.SECONDS);
        }
    }

    private synchronized void tick(String what) {
        err.print("\r\u001b[2Kperfab: building " + Untrusted.plain(what, TEXT_LENGTH) + "  "
                + clock((System.nanoTime() - buildStart) / 1e9) + "  elapsed "
                + clock((System.nanoTime() - start) / 1e9));
        err.flush();
    }

    @Override
    public synchronized void built(String what, double seconds, double cachedSeconds) {
        if (ticker != null) {
            ticker.shutdownNow();
            ticker = null;
        }
        if (level == Level.QUIET) {
            return;
        }
        clear();
        String shown = Untrusted.plain(what, TEXT_LENGTH);
        err.println(
                Double.isNaN(cachedSeconds)
                        ? String.format(
                                Locale.ROOT,
                                "perfab: built %s in %.1f s  elapsed %s",
                                shown,
                                seconds,
                                clock((System.nanoTime() - start) / 1e9))
                        : String.format(
                                Locale.ROOT,
                                "perfab: %s: build taken from the cache in %.1f s (it took %.1f s to build)",
                                shown,
                                seconds,
                                cachedSeconds));
    }

    private void clear() {
        if (live) {
            err.print("\r\u001b[2K");
        }
    }

    /** Returns a span of time in words (see {@link Spans#span}). */
    static String span(double seconds) {
        return Spans.span(seconds);
    }

    /** Returns {@code d} as {@code --budget} takes it (see {@link Spans#option}). */
    static String option(Duration d) {
        return Spans.option(d);
    }

    private static String plural(long n) {
        return n == 1 ? "" : "s";
    }

    private static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600
                ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
