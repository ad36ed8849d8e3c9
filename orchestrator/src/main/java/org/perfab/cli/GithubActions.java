package org.perfab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.perfab.failure.BadInputException;
import org.perfab.report.Format;
import org.perfab.report.Report;
import org.perfab.stats.Verdict;

/**
 * What {@code --format github} does besides printing annotations: appends the comment to the
 * job summary ({@code $GITHUB_STEP_SUMMARY}, within its 1 MiB) and writes the counts and the
 * comment's path to {@code $GITHUB_OUTPUT}.
 */
final class GithubActions {
    /** GitHub's limit on a step's summary, in bytes. */
    static final long SUMMARY_LIMIT = 1024 * 1024;

    private GithubActions() {
    }

    /**
     * Writes {@code comment} to {@code commentFile}, appends it to the job summary when the
     * environment names one, and writes the step's outputs.
     */
    static void publish(Report report, Path commentFile, Map<String, String> env) {
        String path = commentFile.toAbsolutePath().toString();
        if (path.chars().anyMatch(Character::isISOControl)) {
            // A line break would end the output line and start one of the path's choosing.
            throw new BadInputException("the comment's path " + path.replaceAll("\\p{Cntrl}", "?") + " holds a line"
                    + " break or another control character, which GitHub's step outputs cannot carry; choose another");
        }
        String comment = Format.MARKDOWN.renderer().render(report);
        try {
            Files.writeString(commentFile, comment, StandardCharsets.UTF_8);
            appendToSummary(env, "the comment", comment, "it is in " + commentFile);
            String output = env.get("GITHUB_OUTPUT");
            if (output != null && !output.isBlank()) {
                Map<Verdict, Integer> counts = report.table().counts();
                Files.writeString(Path.of(output), "regressions=" + counts.get(Verdict.REGRESSION) + "\n"
                        + "inconclusive=" + counts.get(Verdict.INCONCLUSIVE) + "\n"
                        + "small=" + counts.get(Verdict.SMALL) + "\n"
                        + "improvements=" + counts.get(Verdict.IMPROVEMENT) + "\n"
                        + "noisy=" + counts.get(Verdict.NOISY) + "\n"
                        + "comment=" + path + "\n",
                        StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        } catch (IOException e) {
            throw Output.cannotWrite("GitHub's step files", e);
        }
    }

    /**
     * Appends {@code markdown} to the job summary when the environment names one; when it does not
     * fit in what is left of the summary's 1 MiB, a line saying so, naming {@code what} and where
     * it is {@code instead}.
     */
    static void appendToSummary(Map<String, String> env, String what, String markdown, String instead)
            throws IOException {
        String summary = env.get("GITHUB_STEP_SUMMARY");
        if (summary == null || summary.isBlank()) {
            return;
        }
        Path file = Path.of(summary);
        long used = Files.exists(file) ? Files.size(file) : 0;
        byte[] bytes = markdown.getBytes(StandardCharsets.UTF_8);
        String text = used + bytes.length <= SUMMARY_LIMIT ? markdown
                : "perfab: " + what + " (" + bytes.length + " bytes) does not fit in what is left of the job summary's"
                        + " 1 MiB; " + instead + "\n";
        if (used + text.getBytes(StandardCharsets.UTF_8).length <= SUMMARY_LIMIT) {
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }
}
