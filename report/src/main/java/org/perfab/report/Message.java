package org.perfab.report;

import java.util.Locale;
import java.util.Objects;

/**
 * A message a script of perfab's GitHub workflows publishes in its own words ("the base build
 * failed"), through perfab so that it is escaped and bounded as perfab's own are: its level, its
 * title and its text, which may quote a ref, a branch or a path of the caller's.
 *
 * @param level what GitHub marks it as
 * @param title the annotation's title, {@code perfab} mostly; never empty
 * @param text the message, any text: rendered on one line, bounded to 2,000 code points
 */
public record Message(Level level, String title, String text) {
    /** GitHub's three kinds of annotation. */
    public enum Level {
        /** Shown beside the run, no more. */
        NOTICE,
        /** Something to look at. */
        WARNING,
        /** What stopped the step. */
        ERROR;

        /** The workflow command's name: {@code notice}, {@code warning}, {@code error}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Message {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(text, "text");
        if (title == null || title.isBlank()) {
            throw new IllegalArgumentException("a message needs a title");
        }
    }
}
