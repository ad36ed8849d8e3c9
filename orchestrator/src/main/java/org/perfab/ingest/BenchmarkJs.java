package org.perfab.ingest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;
import org.perfab.stats.Direction;

/**
 * The text benchmark.js prints for each benchmark of a suite ({@code String(event.target)} in its
 * {@code cycle} handler): {@code NAME x 1,234,567 ops/sec ±0.52% (93 runs sampled)} is one reading
 * of cell {@code NAME}, metric {@code throughput} in {@code ops/s}, higher is better. Several runs
 * of a suite in one file are several readings each. A line that looks like a result
 * ({@code NAME x ... ops/sec}) but is not one (cut short, or with a value that is no number) is an
 * error naming its line; other lines (a {@code Fastest is} line, logs) are skipped.
 */
final class BenchmarkJs extends ToolFormat {
    private static final Pattern LINE = Pattern.compile(
            "^(.+?) x ([0-9][0-9,]*(?:\\.[0-9]+)?) ops/sec (?:±|\\+/-)([0-9.]+)% \\((\\d+) runs? sampled\\)$");
    /** What a result line has, whole or not: {@code NAME x ... ops/sec}. */
    private static final Pattern LOOKS_LIKE = Pattern.compile(" x .*ops/sec");

    @Override
    public String id() {
        return "benchmark.js";
    }

    @Override
    public boolean recognises(String head) {
        return Pattern.compile("(?m)^.+ x [0-9][0-9,.]* ops/sec \\S+% \\(\\d+ runs? sampled\\)")
                .matcher(head)
                .find();
    }

    @Override
    public List<Reading> readings(Path file) {
        String[] lines = BadInputException.read(file).split("\n", -1);
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                if (LOOKS_LIKE.matcher(line).find()) {
                    throw bad(
                            file,
                            Integer.toString(i + 1),
                            "looks like a benchmark.js result but is not one"
                                    + " ('NAME x N ops/sec ±P% (R runs sampled)'): " + line);
                }
                continue;
            }
            String name = m.group(1).strip();
            if (name.isEmpty()) {
                throw bad(file, Integer.toString(i + 1), "a benchmark without a name");
            }
            readings.add(new Reading(
                    new Cell(name, "throughput", "ops/s", Direction.HIGHER_IS_BETTER),
                    Double.parseDouble(m.group(2).replace(",", "")),
                    file,
                    i + 1,
                    1));
        }
        if (readings.isEmpty()) {
            throw bad(file, "", "no benchmark.js result lines ('NAME x N ops/sec ±P% (R runs sampled)')");
        }
        return readings;
    }
}
