package org.perfab.report.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * Golden-file assertions. A golden file is the exact expected output, kept under the module's
 * {@code src/test/resources/golden/}. A mismatch writes what was produced beside it as
 * {@code NAME.got-EXT}, ready for a diff; {@code -Dgolden.update=true} rewrites the golden files.
 */
public final class Golden {
    /** The locales every rendering is checked under: the root locale and a decimal-comma one. */
    public static final Locale[] LOCALES = {Locale.ROOT, Locale.GERMANY};

    private static final Path DIR = Path.of("src", "test", "resources", "golden");

    private Golden() {}

    /** Asserts that {@code actual} equals the golden file {@code name} (e.g. {@code table.txt}). */
    public static void assertMatches(String name, String actual) {
        Path golden = DIR.resolve(name);
        int dot = name.lastIndexOf('.');
        Path got = DIR.resolve(dot < 0 ? name + ".got" : name.substring(0, dot) + ".got-" + name.substring(dot + 1));
        try {
            if (Boolean.getBoolean("golden.update")) {
                Files.createDirectories(golden.getParent());
                Files.writeString(golden, actual, StandardCharsets.UTF_8);
                Files.deleteIfExists(got);
                return;
            }
            if (!Files.exists(golden)) {
                Files.createDirectories(golden.getParent());
                Files.writeString(got, actual, StandardCharsets.UTF_8);
                fail("no golden file " + golden + "; wrote " + got + " (run with -Dgolden.update=true to accept it)");
            }
            String expected = Files.readString(golden, StandardCharsets.UTF_8);
            if (!expected.equals(actual)) {
                Files.writeString(got, actual, StandardCharsets.UTF_8);
                fail("output differs from " + golden + "; wrote " + got + " for a diff:\n  diff " + golden + " " + got);
            }
            Files.deleteIfExists(got);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns what {@code body} returns with {@code locale} as the default, then restores it. */
    public static <T> T underLocale(Locale locale, Callable<T> body) throws Exception {
        Locale saved = Locale.getDefault();
        Locale savedFormat = Locale.getDefault(Locale.Category.FORMAT);
        try {
            Locale.setDefault(locale);
            return body.call();
        } finally {
            Locale.setDefault(saved);
            Locale.setDefault(Locale.Category.FORMAT, savedFormat);
        }
    }
}
