package org.perfab.cli;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.perfab.report.Format;
import org.perfab.report.Product;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --format}, the one declaration of it: a command that renders mixes it in (or
 * {@link OutputOptions}, which adds {@code -o}) with its product and its default; the option's
 * help and completion list that product's formats, and a format the product does not write is a
 * usage error as the command line is parsed.
 *
 * @param <T> what the command renders
 */
class FormatOption<T> {
    /** The long name, as help and errors show it. */
    static final String NAME = "--format";

    private final Product<T> product;
    private final Format fallback;
    private final Optional<Format> onTerminal;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** The format asked for; null when none was. */
    private Format given;

    /** The option of a command that renders {@code product}, in {@code fallback} unless told. */
    FormatOption(Product<T> product, Format fallback) {
        this(product, fallback, Optional.empty());
    }

    private FormatOption(Product<T> product, Format fallback, Optional<Format> onTerminal) {
        this.product = Objects.requireNonNull(product, "product");
        this.fallback = fallback;
        this.onTerminal = onTerminal;
        for (Format f : onTerminal.map(t -> List.of(fallback, t)).orElse(List.of(fallback))) {
            if (!product.supports(f)) {
                throw new IllegalArgumentException(product.unsupported(f));
            }
        }
    }

    /** A copy of {@code other}'s product and defaults, for a subclass that adds options. */
    FormatOption(FormatOption<T> other) {
        this(other.product, other.fallback, other.onTerminal);
    }

    /**
     * The option of a command that renders {@code product}, in {@code terminal} when standard output
     * is a terminal and in {@code otherwise} when it is a pipe or a file, unless told.
     */
    static <T> FormatOption<T> dependingOnTerminal(Product<T> product, Format terminal, Format otherwise) {
        return new FormatOption<>(product, otherwise, Optional.of(terminal));
    }

    /**
     * Reads {@code --format} as picocli parses it, so that a format the product does not write is
     * refused before the command does anything.
     */
    @Option(names = NAME, paramLabel = "FORMAT", description = "What to print.")
    void given(String id) {
        if (id == null) {
            given = null;
            return;
        }
        Format f = Format.byId(id).orElseThrow(() -> new ParameterException(mixee.commandLine(), NAME
                + ": unknown format '" + id + "' (this command writes " + product.list() + ")"));
        if (!product.supports(f)) {
            throw new ParameterException(mixee.commandLine(), NAME + ": " + product.unsupported(f));
        }
        given = f;
    }

    /** Returns what the command renders. */
    Product<T> product() {
        return product;
    }

    /**
     * Returns the format asked for, else the default: for a command whose default depends on it,
     * {@code terminal} says whether standard output is a terminal.
     */
    Format format(boolean terminal) {
        if (given != null) {
            return given;
        }
        return terminal ? onTerminal.orElse(fallback) : fallback;
    }

    /** Returns what help says of the option: the product's formats and the default. */
    String description() {
        String shown = onTerminal.map(t -> t.id() + " on a terminal, else " + fallback.id()).orElse(fallback.id());
        return "What to print: " + product.list() + " (default: " + shown + ")."
                + (product.supports(Format.GITHUB) ? " github also writes the job summary and the step's outputs." : "");
    }

    /**
     * Gives the {@code --format} of every command under {@code root} its product's description and
     * completion candidates: picocli reads an option's help from its annotation, the same for every
     * command that mixes it in.
     */
    static void describe(CommandLine root) {
        CommandSpec spec = root.getCommandSpec();
        for (CommandSpec mixin : spec.mixins().values()) {
            Object user = mixin.userObject();
            OptionSpec declared = spec.findOption(NAME);
            if (user instanceof FormatOption<?> option && declared != null) {
                spec.remove(declared);
                spec.addOption(declared.toBuilder().description(option.description())
                        .completionCandidates(option.product.formats().stream().map(Format::id).toList())
                        .build());
                OptionSpec output = spec.findOption("--output");
                if (user instanceof OutputOptions<?> && output != null && option.product.supports(Format.GITHUB)) {
                    spec.remove(output);
                    spec.addOption(output.toBuilder().description(OutputOptions.DESCRIPTION_WITH_GITHUB).build());
                }
            }
        }
        root.getSubcommands().values().forEach(FormatOption::describe);
    }
}
