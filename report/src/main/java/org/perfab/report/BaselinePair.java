package org.perfab.report;

import java.util.Objects;
import org.perfab.model.BaselineDiff;

/**
 * Two baselines side by side, as {@code perfab baseline diff} renders them: their difference and
 * the names each is shown by.
 *
 * @param diff how the second baseline's floors differ from the first's
 * @param first what the first baseline is called (its file name)
 * @param second what the second is called
 */
public record BaselinePair(BaselineDiff diff, String first, String second) {
    public BaselinePair {
        Objects.requireNonNull(diff, "diff");
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
    }
}
