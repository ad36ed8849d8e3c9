package org.perfab.report;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One thing perfab renders (an A/B table, a table across runners, a bisect, a series check, ...): its
 * type, its renderer of each format it supports, and the outputs a GitHub step gives of it. A new
 * product is a type and its renderers; every command prints through the same {@link Format}s.
 *
 * @param <T> what is rendered
 */
public final class Product<T> {
    private final String name;
    private final Map<Format, Renderer<T>> renderers;
    private final Optional<Renderer<T>> colouredText;
    private final Function<T, Map<String, String>> outputs;
    private final String summary;

    private Product(
            String name,
            Map<Format, Renderer<T>> renderers,
            Optional<Renderer<T>> colouredText,
            Function<T, Map<String, String>> outputs,
            String summary) {
        this.name = Objects.requireNonNull(name, "name");
        this.summary = Objects.requireNonNull(summary, "summary");
        this.renderers = new EnumMap<>(Format.class);
        this.renderers.putAll(renderers);
        this.colouredText = colouredText;
        this.outputs = outputs;
        if (renderers.containsKey(Format.GITHUB) && !renderers.containsKey(Format.MARKDOWN)) {
            throw new IllegalArgumentException(name + ": the GitHub form needs Markdown for the job summary");
        }
    }

    /** Returns a product named {@code name} ("perfab runners") with no format yet. */
    public static <T> Product<T> named(String name) {
        return new Product<>(name, Map.of(), Optional.empty(), v -> Map.of(), "the Markdown of " + name);
    }

    /** Returns this product rendering {@code format} with {@code renderer}. */
    public Product<T> with(Format format, Renderer<T> renderer) {
        Map<Format, Renderer<T>> more = new EnumMap<>(Format.class);
        more.putAll(renderers);
        more.put(format, renderer);
        return new Product<>(name, more, colouredText, outputs, summary);
    }

    /** Returns this product with {@code renderer} for text on a terminal that shows colour. */
    public Product<T> colouredText(Renderer<T> renderer) {
        return new Product<>(name, renderers, Optional.of(renderer), outputs, summary);
    }

    /**
     * Returns this product with {@code outputs} as what a GitHub step gives of a value (name to
     * value, in order: {@code regressions=2}); see {@link #outputs(Object)}.
     */
    public Product<T> outputs(Function<T, Map<String, String>> outputs) {
        return new Product<>(name, renderers, colouredText, outputs, summary);
    }

    /**
     * Returns this product with {@code what} as what its Markdown is called in a job summary
     * ("the comment"), for the line that says it did not fit.
     */
    public Product<T> summary(String what) {
        return new Product<>(name, renderers, colouredText, outputs, what);
    }

    /** Returns what this product's Markdown is called in a job summary: "the comment". */
    public String summary() {
        return summary;
    }

    /** Returns the product's name, as an error message names it: {@code perfab runners}. */
    public String name() {
        return name;
    }

    /** Returns the formats this product is rendered in, in {@link Format}'s order. */
    public List<Format> formats() {
        return List.copyOf(renderers.keySet());
    }

    /** Returns whether this product is rendered in {@code format}. */
    public boolean supports(Format format) {
        return renderers.containsKey(format);
    }

    /**
     * Returns the renderer of {@code format}, coloured for a terminal when {@code colour} and the
     * product colours its text.
     *
     * @throws IllegalArgumentException naming the formats this product supports, when not {@code format}
     */
    public Renderer<T> renderer(Format format, boolean colour) {
        Renderer<T> r = renderers.get(format);
        if (r == null) {
            throw new IllegalArgumentException(unsupported(format));
        }
        return format == Format.TEXT && colour ? colouredText.orElse(r) : r;
    }

    /** Returns {@code value} rendered in {@code format}, uncoloured; see {@link #renderer}. */
    public String render(T value, Format format) {
        return renderer(format, false).render(value);
    }

    /**
     * Returns what a GitHub step gives of {@code value} in {@code $GITHUB_OUTPUT}: names to values
     * (counts, mostly), in a fixed order; empty for a product that gives none.
     */
    public Map<String, String> outputs(T value) {
        return outputs.apply(value);
    }

    /** Returns the sentence that this product is not rendered in {@code format}, and what it is rendered in. */
    public String unsupported(Format format) {
        return name + " writes " + list() + ", not " + format.id();
    }

    /** Returns the ids of the supported formats, as a sentence lists them: {@code text, markdown or json}. */
    public String list() {
        List<String> ids = formats().stream().map(Format::id).toList();
        return ids.size() == 1
                ? ids.get(0)
                : ids.subList(0, ids.size() - 1).stream().collect(Collectors.joining(", ")) + " or "
                        + ids.get(ids.size() - 1);
    }

    @Override
    public String toString() {
        return name;
    }
}
