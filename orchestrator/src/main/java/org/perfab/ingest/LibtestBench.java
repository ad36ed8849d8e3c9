package org.perfab.ingest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perfab.failure.BadInputException;
import org.perfab.model.Cell;

/**
 * The text of Rust's built-in bench harness ({@code cargo bench} on {@code #[bench]} functions,
 * libtest): every {@code test NAME ... bench: 1,234.56 ns/iter (+/- 78.9)} line is one reading of
 * cell {@code NAME}, metric {@code time} in {@code ns/iter}. Several runs in one file are several
 * readings each. Lines of tests that passed, failed or were ignored are not benchmarks, and are
 * skipped.
 */
final class LibtestBench extends ToolFormat {
    private static final Pattern LINE = Pattern.compile(
            "^test (\\S+) +\\.\\.\\. +bench: +([0-9][0-9,]*(?:\\.[0-9]+)?) ns/iter \\(\\+/- ([0-9][0-9,]*(?:\\.[0-9]+)?)\\)"
                    + "(?: = .*)?$");

    @Override
    public String id() {
        return "libtest";
    }

    @Override
    public boolean recognises(String head) {
        return Pattern.compile("(?m)^test \\S+ +\\.\\.\\. +bench: +[0-9]")
                .matcher(head)
                .find();
    }

    @Override
    public List<Reading> readings(Path file) {
        String[] lines = BadInputException.read(file).split("\n", -1);
        List<Reading> readings = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].stripTrailing();
            if (!line.startsWith("test ") || !line.contains(" bench:")) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                throw bad(
                        file,
                        Integer.toString(i + 1),
                        "not a bench result line (test NAME ... bench: N ns/iter (+/- D)): " + line);
            }
            Cell cell = cell(file, Integer.toString(i + 1), m.group(1), "time", "ns/iter");
            readings.add(new Reading(cell, Double.parseDouble(m.group(2).replace(",", "")), file, i + 1, 1));
        }
        if (readings.isEmpty()) {
            throw bad(file, "", "no bench result lines (cargo bench prints 'test NAME ... bench: N ns/iter (+/- D)')");
        }
        return readings;
    }
}
