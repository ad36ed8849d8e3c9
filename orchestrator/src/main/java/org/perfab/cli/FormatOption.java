package org.perfab.cli;

import java.nio.file.Path;
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
        Format f = Format.byId(id)
                .orElseThrow(() -> new ParameterException(
                        mixee.commandLine(),
                        NAME + ": unknown format '" + id + "' (this command writes " + product.list() + ")"));
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
        String shown = onTerminal
                .map(t -> t.id() + " on a terminal, else " + fallback.id())
                .orElse(fallback.id());
        return "What to print: " + product.list() + " (default: " + shown + ")."
                + (product.supports(Format.GITHUB)
                        ? " github also writes the job summary and the step's outputs."
                        : "");
    }

    /**
     * Renders {@code value} in the format asked for, whole, then prints it; see
     * {@link #emit(Session, Object, Optional, Optional)}.
     */
    void emit(Session session, T value) {
        emit(session, value, Optional.empty(), Optional.empty());
    }

    /**
     * Renders {@code value} in the format asked for, whole, then prints it or writes it to
     * {@code file}; text is coloured only for a terminal ({@link Output#colour}). With
     * {@link Format#GITHUB} the annotations are printed, and the Markdown is published to the step
     * ({@link GithubActions}), and written to {@code markdown}, else to {@code file}, when one is given.
     */
    void emit(Session session, T value, Optional<Path> file, Optional<Path> markdown) {
        Format format = format(session.terminal() && file.isEmpty());
        String rendered = product.renderer(format, file.isEmpty() && Output.colour(session.env(), session.terminal()))
                .render(value);
        if (format == Format.GITHUB) {
            GithubActions.publish(product, value, markdown.or(() -> file), session.env());
            Output.print(mixee, rendered, null);
            return;
        }
        Output.print(mixee, rendered, file.orElse(null));
    }

    /**
     * Gives the {@code --format} of the command {@code spec} its product's description and
     * completion candidates: picocli reads an option's help from its annotation, the same for every
     * command that mixes it in.
     */
    void describe(CommandSpec spec) {
        OptionSpec declared = spec.findOption(NAME);
        if (declared != null) {
            spec.remove(declared);
            spec.addOption(declared.toBuilder()
                    .description(description())
                    .completionCandidates(
                            product.formats().stream().map(Format::id).toList())
                    .build());
        }
    }

    /** Describes the {@code --format} of every command under {@code root} ({@link #describe(CommandSpec)}). */
    static void describe(CommandLine root) {
        CommandSpec spec = root.getCommandSpec();
        for (CommandSpec mixin : spec.mixins().values()) {
            if (mixin.userObject() instanceof FormatOption<?> option) {
                option.describe(spec);
            }
        }
        root.getSubcommands().values().forEach(FormatOption::describe);
    }
}
