package org.perfab.ab;

import java.io.PrintStream;
import java.util.Locale;
import org.perfab.report.Untrusted;

/**
 * Progress on standard error: one line per trial (side, trial i/N, its time, elapsed, ETA), and a
 * line that redraws in place while a trial runs when standard error is a terminal.
 */
final class Progress {
    /** The longest status shown after a trial. */
    private static final int STATUS_LENGTH = 300;

    private final PrintStream err;
    private final boolean live;
    private final int total;
    private final long start = System.nanoTime();
    private double trialSeconds;
    private int done;

    Progress(PrintStream err, boolean live, int total) {
        this.err = err;
        this.live = live;
        this.total = total;
    }

    /** Records that a trial is starting. */
    void starting(TrialOrder.Slot slot, int ofSide) {
        if (live) {
            err.print("\r\u001b[2K" + line(slot, ofSide, "running"));
            err.flush();
        }
    }

    /**
     * Records that a trial ended after {@code seconds}, with {@code status}: text that may quote
     * the harness, so it is shown on one line, without control characters, and bounded.
     */
    void finished(TrialOrder.Slot slot, int ofSide, double seconds, String status) {
        done++;
        trialSeconds += seconds;
        clear();
        err.println(line(slot, ofSide, String.format(Locale.ROOT, "%.2fs %s", seconds,
                Untrusted.plain(status, STATUS_LENGTH))));
    }

    private String line(TrialOrder.Slot slot, int ofSide, String what) {
        double elapsed = (System.nanoTime() - start) / 1e9;
        String eta = done == 0 ? "?" : clock(trialSeconds / done * (total - done));
        return String.format(Locale.ROOT, "perfab: [%" + width() + "d/%d] %-4s %s %d/%d  %s  elapsed %s  eta %s",
                Math.min(done + (what.equals("running") ? 1 : 0), total), total, slot.side().id(),
                slot.warmup() ? "warm-up" : "trial", slot.trial() + 1, ofSide, what, clock(elapsed), eta);
    }

    private int width() {
        return Integer.toString(total).length();
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
