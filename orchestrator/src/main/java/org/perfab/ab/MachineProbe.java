package org.perfab.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.perfab.model.RunResults;

/**
 * Describes the machine a run is on, from what the OS and the CI environment tell: the real
 * engine's description of the machine ({@link Engine#REAL}), so the one place a run reads the JVM's
 * properties and {@code /proc/cpuinfo}; a fake engine describes a machine of its own.
 */
public final class MachineProbe {
    private MachineProbe() {}

    /** Returns the machine, reading {@code /proc/cpuinfo} where there is one and {@code env}. */
    public static RunResults.Machine probe(Map<String, String> env) {
        return new RunResults.Machine(
                cpu(),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name") + " " + System.getProperty("os.arch"),
                System.getProperty("os.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                runner(env));
    }

    private static String cpu() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    String key = line.substring(0, colon).trim();
                    if (key.equals("model name") || key.equals("Model") || key.equals("Hardware")) {
                        return line.substring(colon + 1).trim();
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: fall through
        }
        return "unknown";
    }

    /** Returns the CI runner's name and class as GitHub Actions or GitLab CI tell them. */
    static String runner(Map<String, String> env) {
        List<String> parts = new ArrayList<>();
        for (String name : List.of("RUNNER_NAME", "ImageOS", "RUNNER_OS", "RUNNER_ARCH", "CI_RUNNER_DESCRIPTION")) {
            String v = env.get(name);
            if (v != null && !v.isBlank() && !parts.contains(v)) {
                parts.add(v);
            }
        }
        return String.join(" / ", parts);
    }
}
