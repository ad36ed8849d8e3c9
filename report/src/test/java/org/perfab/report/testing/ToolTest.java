package org.perfab.report.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@link Tool} and {@code .ci/tools} agree: what the tests require in CI is what CI installs. */
class ToolTest {
    private static final Path CI = Path.of("..", ".ci", "run");
    private static final Path TOOLS = Path.of("..", ".ci", "tools");

    @Test
    void everyProgramRequiredInCiIsOneCiInstalls() throws IOException {
        String run = Files.readString(TOOLS);
        int checked = 0;
        for (Tool tool : Tool.values()) {
            if (!tool.installedByCi()) {
                continue;
            }
            String how = tool.install().split(",", 2)[0];
            assertTrue(how.startsWith("apt-get install ") || how.startsWith("npm install "), tool + ": " + how);
            List<String> packages = Arrays.stream(how.split(" "))
                    .skip(2)
                    .filter(w -> !w.startsWith("-"))
                    .toList();
            assertFalse(packages.isEmpty(), tool + ": " + how);
            for (String p : packages) {
                assertTrue(
                        Pattern.compile("(?<![\\w.@/+-])" + Pattern.quote(p) + "(?![\\w.@/+-])")
                                .matcher(run)
                                .find(),
                        ".ci/tools installs " + p + " for " + tool + " (" + how + ")");
                checked++;
            }
        }
        assertTrue(checked >= 18, "the programs checked: " + checked);
    }

    @Test
    void ciRunsTheReadmesCommandWithTheProgramsRequired() throws IOException {
        List<String> lines = Files.readAllLines(CI);
        assertEquals("mvn -B verify", lines.get(lines.size() - 1), "the README's command, as it is");
        assertTrue(lines.contains("export " + Tool.REQUIRE + "=\"${" + Tool.REQUIRE + ":-true}\""), lines.toString());
        assertTrue(lines.contains("bash .ci/tools"), "the programs installed first: " + lines);
    }
}
