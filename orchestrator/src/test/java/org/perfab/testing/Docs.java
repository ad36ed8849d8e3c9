package org.perfab.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The project's documentation as a user reads it: the README, then every page of docs/, in name order. */
public final class Docs {
    /** The repository's root, from a module's folder (where Maven runs the tests). */
    public static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private Docs() {}

    /** Returns the README and every docs/*.md page, one after another. */
    public static String text() {
        try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
            return Stream.concat(
                            Stream.of(ROOT.resolve("README.md")),
                            pages.filter(p -> p.toString().endsWith(".md")).sorted())
                    .map(Docs::read)
                    .collect(Collectors.joining("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path page) {
        try {
            return Files.readString(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
