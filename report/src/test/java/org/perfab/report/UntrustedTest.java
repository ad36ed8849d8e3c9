package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one rule that keeps text from a pull request from being read as a workflow command. */
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
            assertEquals(space + "\u200B::error::owned", shown, "after " + space.codePoints().boxed().toList());
            assertFalse(trimmedAsARunnerDoes(shown).startsWith("::"), shown);
            assertFalse(trimmedAsARunnerDoes(Untrusted.plain(line, 200)).startsWith("::"), line);
        }
    }

    @Test
    void everyLineIsDefusedAndOthersAreLeftAlone() {
        assertEquals("perfab: bad\n\u00A0\u200B::add-mask::x\n a :: b\n\u200B::", Untrusted.defused(
                "perfab: bad\n\u00A0::add-mask::x\n a :: b\n::"));
        assertEquals("", Untrusted.defused(""));
        assertEquals(":", Untrusted.defused(":"));
        assertEquals("x\n", Untrusted.defused("x\n"));
    }
}
