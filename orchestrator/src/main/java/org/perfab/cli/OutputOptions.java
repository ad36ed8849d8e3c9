package org.perfab.cli;

import java.nio.file.Path;
import java.util.Optional;
import org.perfab.report.Format;
import org.perfab.report.Product;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * {@link FormatOption}'s {@code --format} and {@code -o/--output}, the one declaration of both, for
 * a command that prints one rendering: to standard output, or to a file; with
 * {@code --format github}, the annotations to standard output, the Markdown to the job summary
 * (and to the file), the outputs to the step.
 *
 * @param <T> what the command renders
 */
final class OutputOptions<T> extends FormatOption<T> {
    /** What help says of {@code -o} for a command that writes {@code --format github}. */
    private static final String DESCRIPTION_WITH_GITHUB = "Write to FILE instead of standard output (with --format"
            + " github: the Markdown; the annotations go to standard output).";

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Write to FILE instead of standard output.")
    Path output;

    /** The options of a command that renders {@code product}, in {@code fallback} unless told. */
    OutputOptions(Product<T> product, Format fallback) {
        super(product, fallback);
    }

    /** The options of a command whose default format is {@code format}'s. */
    OutputOptions(FormatOption<T> format) {
        super(format);
    }

    /** Renders {@code value} as asked and prints it or writes it to {@code -o}; see {@link FormatOption#emit}. */
    @Override
    void emit(Session session, T value) {
        emit(session, value, Optional.empty());
    }

    /** Renders {@code value} as asked; with {@code --format github}, the Markdown also goes to {@code markdown}. */
    void emit(Session session, T value, Optional<Path> markdown) {
        emit(session, value, Optional.ofNullable(output), markdown);
    }

    /** Describes {@code --format} as {@link FormatOption} does, and {@code -o} as the product writes it. */
    @Override
    void describe(CommandSpec spec) {
        super.describe(spec);
        OptionSpec declared = spec.findOption("--output");
        if (declared != null && product().supports(Format.GITHUB)) {
            spec.remove(declared);
            spec.addOption(
                    declared.toBuilder().description(DESCRIPTION_WITH_GITHUB).build());
        }
    }
}
