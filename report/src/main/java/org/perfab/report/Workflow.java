package org.perfab.report;

import java.util.List;
import java.util.function.IntFunction;

/**
 * GitHub Actions workflow commands ({@code ::warning title=T::message}), as every product's
 * {@link Format#GITHUB} rendering writes them: escaped, and within GitHub's ten annotations of a
 * type per step.
 */
final class Workflow {
    /** GitHub's limit of annotations of one type per step. */
    static final int PER_TYPE = 10;

    private Workflow() {}

    /** Returns one workflow command line: {@code ::COMMAND title=TITLE::MESSAGE}, both escaped. */
    static String command(String command, String title, String message) {
        return "::" + command + " title=" + property(title) + "::" + data(message) + "\n";
    }

    /**
     * Appends a {@code command} for each of {@code messages}, at most {@code limit} lines: past
     * {@code limit}, the last line says how many more there are with {@code more} (given that
     * count), and returns how many lines it appended.
     */
    static int annotate(
            StringBuilder out,
            String command,
            String title,
            List<String> messages,
            int limit,
            IntFunction<String> more) {
        if (limit <= 0 || messages.isEmpty()) {
            return 0;
        }
        int shown = messages.size() <= limit ? messages.size() : limit - 1;
        for (String m : messages.subList(0, shown)) {
            out.append(command(command, title, m));
        }
        if (messages.size() > shown) {
            out.append(command(command, title, more.apply(messages.size() - shown)));
        }
        return Math.min(messages.size(), limit);
    }

    /** Escapes the message of a workflow command. */
    static String data(String s) {
        return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    /** Escapes a property value of a workflow command. */
    static String property(String s) {
        return data(s).replace(":", "%3A").replace(",", "%2C");
    }
}
