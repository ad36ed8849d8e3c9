package org.perfab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.perfab.failure.BadInputException;
import org.perfab.report.Format;
import org.perfab.report.Product;

/**
 * GitHub's step files, the one place perfab writes them: what {@code --format github} does besides
 * printing annotations, for every product (appends its Markdown to the job summary,
 * {@code $GITHUB_STEP_SUMMARY}, within its 1 MiB; writes the Markdown to a file when the command
 * names one; writes the product's outputs, and the file's path as {@code comment}, to
 * {@code $GITHUB_OUTPUT}), and what {@code perfab github} does for the scripts of perfab's
 * workflows, which write neither file themselves.
 */
final class GithubActions {
    /** GitHub's limit on a step's summary, in bytes. */
    static final long SUMMARY_LIMIT = 1024 * 1024;

    private GithubActions() {}

    /**
     * Publishes {@code value} of {@code product} to the step whose files {@code env} names; writes
     * its Markdown to {@code markdownFile} too when there is one.
     *
     * @throws BadInputException before writing anything, when an output's value holds a line break
     *     (a path, say), which would end its line and start one of its choosing
     */
    static <T> void publish(Product<T> product, T value, Optional<Path> markdownFile, Map<String, String> env) {
        Map<String, String> outputs = new LinkedHashMap<>(product.outputs(value));
        markdownFile.ifPresent(f -> outputs.put("comment", f.toAbsolutePath().toString()));
        checkOutputs(outputs);
        String markdown = product.render(value, Format.MARKDOWN);
        try {
            if (markdownFile.isPresent()) {
                Files.writeString(markdownFile.get(), markdown, StandardCharsets.UTF_8);
            }
            appendToSummary(
                    env,
                    product.summary(),
                    markdown,
                    markdownFile
                            .map(f -> "it is in " + f)
                            .orElse("'" + product.name() + " --format markdown' prints it"));
            appendOutputs(env, outputs);
        } catch (IOException e) {
            throw Output.cannotWrite("GitHub's step files", e);
        }
    }

    /**
     * Writes {@code outputs} (name to value, in order) to the step's outputs when the environment
     * names their file; nothing when it does not.
     *
     * @throws BadInputException before writing anything, when a name or a value is one GitHub's
     *     outputs cannot carry (see {@link #checkOutputs})
     */
    static void setOutputs(Map<String, String> env, Map<String, String> outputs) {
        checkOutputs(outputs);
        try {
            appendOutputs(env, outputs);
        } catch (IOException e) {
            throw Output.cannotWrite("GitHub's step outputs", e);
        }
    }

    /**
     * Refuses an output whose name is not letters, digits, {@code -} and {@code _} (from a letter or
     * {@code _}), or whose value holds a line break or another control character: either would end
     * its line of {@code $GITHUB_OUTPUT} and start one of its own choosing.
     *
     * @throws BadInputException naming the output
     */
    static void checkOutputs(Map<String, String> outputs) {
        outputs.forEach((name, v) -> {
            if (!OUTPUT_NAME.matcher(name).matches()) {
                throw new BadInputException("the step output '" + name.replaceAll("\\p{Cntrl}", "?") + "' is not a"
                        + " name GitHub's step outputs take: letters, digits, - and _, from a letter or _");
            }
            if (v.chars().anyMatch(Character::isISOControl)) {
                throw new BadInputException("the step output " + name + " (" + v.replaceAll("\\p{Cntrl}", "?")
                        + ") holds a line break or another control character, which GitHub's step outputs cannot"
                        + " carry; choose another");
            }
        });
    }

    private static final Pattern OUTPUT_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

    private static void appendOutputs(Map<String, String> env, Map<String, String> outputs) throws IOException {
        String file = env.get("GITHUB_OUTPUT");
        if (file != null && !file.isBlank() && !outputs.isEmpty()) {
            StringBuilder lines = new StringBuilder();
            outputs.forEach(
                    (name, v) -> lines.append(name).append('=').append(v).append('\n'));
            Files.writeString(
                    Path.of(file), lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
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
        String text = used + bytes.length <= SUMMARY_LIMIT
                ? markdown
                : "perfab: " + what + " (" + bytes.length + " bytes) does not fit in what is left of the job summary's"
                        + " 1 MiB; " + instead + "\n";
        if (used + text.getBytes(StandardCharsets.UTF_8).length <= SUMMARY_LIMIT) {
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }
}
