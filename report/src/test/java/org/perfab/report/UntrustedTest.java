package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rules for text from a pull request: never read as a workflow command, and names that differ
 * only in their spaces never shown alike.
 */
class UntrustedTest {
    /** Returns {@code line} without the leading characters a runner trims (Unicode White_Space). */
    static String trimmedAsARunnerDoes(String line) {
        return line.replaceFirst("^[\\s\\p{Z}\\u0085]+", "");
    }

    @Test
    void aCommandAfterAnySpaceTheRunnerTrimsIsDefused() {
        for (String space : List.of("", " ", "\t", "\u00A0", "\u2007", "\u202F", "\u3000", "\u2003 \u00A0")) {
            String line = space + "::error::owned";
            String shown = Untrusted.defused(line);
            assertEquals(
                    space + "\u200B::error::owned",
                    shown,
                    "after " + space.codePoints().boxed().toList());
            assertFalse(trimmedAsARunnerDoes(shown).startsWith("::"), shown);
            assertFalse(trimmedAsARunnerDoes(Untrusted.plain(line, 200)).startsWith("::"), line);
        }
    }

    @Test
    void everyLineIsDefusedAndOthersAreLeftAlone() {
        assertEquals(
                "perfab: bad\n\u00A0\u200B::add-mask::x\n a :: b\n\u200B::",
                Untrusted.defused("perfab: bad\n\u00A0::add-mask::x\n a :: b\n::"));
        assertEquals("", Untrusted.defused(""));
        assertEquals(":", Untrusted.defused(":"));
        assertEquals("x\n", Untrusted.defused("x\n"));
    }

    @ParameterizedTest(name = "[{0}] is shown [{1}]")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "a b             | a b",
                "Encode/bpe big  | Encode/bpe big",
                "a  b            | a\u2420\u2420b",
                "\" a\"          | \u2420a",
                "\"a \"          | a\u2420",
                "\"   \"         | \u2420\u2420\u2420",
                "a\u00A0b        | a\u27E8U+00A0\u27E9b",
                "a \u2003b       | a\u2420\u27E8U+2003\u27E9b",
                "a\u2420b        | a\u27E8U+2420\u27E9b",
                "\u27E8U+20\u27E9 | \u27E8U+27E8\u27E9U+20\u27E9",
            })
    void showsTheSpacesAReaderCouldNotSeeOrCountAndLeavesOrdinaryNamesAlone(String name, String shown) {
        assertEquals(shown, Untrusted.spaces(name));
    }

    @Test
    void namesThatDifferOnlyInTheirSpacesAreShownApartInEveryForm() {
        List<String> names = List.of(
                "a b",
                "a  b",
                "a b ",
                " a b",
                "a\u00A0b",
                "a\u2002b",
                "a \u2420b",
                "a\u2420 b",
                "\u2420 ",
                " \u2420",
                "ab");
        for (var form : List.<java.util.function.UnaryOperator<String>>of(
                Untrusted::plain, Untrusted::markdown, Untrusted::html)) {
            Set<String> shown = new HashSet<>();
            names.forEach(n -> shown.add(form.apply(n)));
            assertEquals(names.size(), shown.size(), shown.toString());
        }
        assertEquals("a b", Untrusted.markdown("a b"));
        assertEquals("x\u2420\u2420y", Untrusted.html("x  y"));
        assertEquals("prose  stays, as written ", Untrusted.plain("prose  stays, as written ", 200));
    }
}
