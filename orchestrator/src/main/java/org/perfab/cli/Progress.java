package org.perfab.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.perfab.ab.Events;
import org.perfab.model.Side;
import org.perfab.report.Untrusted;

/**
 * A run's progress on standard error: its notes, one line per trial (side, trial i/N, its time,
 * elapsed, ETA), and a line that redraws in place while a trial runs when standard error is a
 * terminal. Notes and statuses may quote a pull request (paths, harness output): they are shown on
 * one line, without control characters, and bounded.
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

    private final PrintStream err;
    private final boolean live;
    private final Level level;
    private final long start = System.nanoTime();
    private int total;
    private int done;
    private int ran;
    private double trialSeconds;

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
        ran++;
        trialSeconds += seconds;
        if (level == Level.QUIET) {
            return;
        }
        clear();
        err.println(line(side, warmup, trial, ofSide, String.format(Locale.ROOT, "%.2fs %s", seconds,
                Untrusted.plain(status, TEXT_LENGTH)), 0));
    }

    private String line(Side side, boolean warmup, int trial, int ofSide, String what, int running) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        String eta = ran == 0 ? "?" : clock(trialSeconds / ran * (total - done));
        return String.format(Locale.ROOT, "perfab: [%" + Integer.toString(total).length() + "d/%d] %-4s %s %d/%d  %s"
                + "  elapsed %s  eta %s", Math.min(done + running, total), total, side.id(),
                warmup ? "warm-up" : "trial", trial + 1, ofSide, what, clock(elapsed), eta);
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
                + clock((System.nanoTime() - buildStart) / 1e9) + "  elapsed " + clock((System.nanoTime() - start) / 1e9));
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
        err.println(Double.isNaN(cachedSeconds)
                ? String.format(Locale.ROOT, "perfab: built %s in %.1f s  elapsed %s", shown, seconds,
                        clock((System.nanoTime() - start) / 1e9))
                : String.format(Locale.ROOT, "perfab: %s: build taken from the cache in %.1f s (it took %.1f s to"
                        + " build)", shown, seconds, cachedSeconds));
    }

    private void clear() {
        if (live) {
            err.print("\r\u001b[2K");
        }
    }

    private static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
