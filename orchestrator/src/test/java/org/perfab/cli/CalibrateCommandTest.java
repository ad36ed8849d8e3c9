package org.perfab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code perfab calibrate} on the command line: rendered once, in the format asked for. */
class CalibrateCommandTest {
    @TempDir
    Path tmp;

    @Test
    void writesTheSimulationAloneInTheFormatAskedFor() throws Exception {
        Path file = tmp.resolve("calibration.json");
        Cli run = Cli.run(
                "calibrate",
                "--runs",
                "1",
                "--noise",
                "normal",
                "--ab-runs",
                "0",
                "--format",
                "json",
                "-o",
                file.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.out());
        assertEquals("", run.err(), "no real runs, nothing to wait for");
        JsonNode json = new ObjectMapper().readTree(Files.readString(file));
        assertEquals("perfab/calibration/v2", json.get("schema").asText());
        assertEquals("normal", json.at("/simulation/noises/0/noise").asText());
        assertTrue(json.get("real").isNull(), json.toString());
    }

    @Test
    void refusesAnOutputWithoutAFolderBeforeRunningAnything() {
        Path file = tmp.resolve("missing").resolve("calibration.txt");
        Cli run = Cli.run("calibrate", "--quick", "-o", file.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().startsWith("perfab: -o " + file + ": there is no folder " + file.getParent()), run.err());
    }
}
