package calib;

/**
 * The code under test of perfab's calibration: each routine costs a number of steps set by a
 * constant, so a commit that raises a constant by 5% makes that routine about 5% slower, a real
 * change of the code. A step is one round of a 64-bit mixing function whose result feeds the
 * next, so the compiler can neither skip nor vectorise the steps, and the time is linear in them.
 */
public final class Subject {
    /** The steps of {@code target}: the routine the calibration's commits slow down. */
    public static final int TARGET_STEPS = @TARGET@;
    /** The steps of the routines no commit changes. */
    public static final int STEADY_STEPS = 20000;

    private Subject() {
    }

    /** The routine the commits change. */
    public static long target(long seed) {
        return mix(seed, TARGET_STEPS);
    }

    /** A routine that stays the same. */
    public static long steady(long seed) {
        return mix(seed, STEADY_STEPS);
    }

    static long mix(long x, int steps) {
        for (int i = 0; i < steps; i++) {
            x = x * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
            x ^= x >>> 29;
        }
        return x;
    }
}
