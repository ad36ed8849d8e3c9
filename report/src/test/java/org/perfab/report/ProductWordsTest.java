package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The words of the products other than an A/B (a table across runner classes, a bisect, a nightly
 * series' check) quote only what their own tables show: each figure or count in a sentence is
 * read again from the golden comment's table here. The A/B's notes are {@link QuotedFiguresTest}'s.
 */
class ProductWordsTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    /** The table rows of a Markdown comment, each split into its cells; the header and rule left out. */
    private static List<List<String>> rows(List<String> lines) {
        List<List<String>> rows = new ArrayList<>();
        int inTable = 0;
        for (String l : lines) {
            inTable = l.startsWith("|") ? inTable + 1 : 0;
            if (inTable <= 2) {
                continue; // not a table's line, or its header, or its rule
            }
            List<String> cells = new ArrayList<>();
            for (String c : l.substring(1, l.length() - 1).split("(?<!\\\\)\\|")) {
                cells.add(c.trim());
            }
            rows.add(cells);
        }
        return rows;
    }

    private static List<String> golden(String name) throws IOException {
        return Files.readAllLines(GOLDEN.resolve(name));
    }

    private static final Pattern VERDICT = Pattern.compile("\\) ([a-z ]+)$");
    private static final Pattern ON = Pattern.compile("^([a-z ]+) on (\\d+) of (\\d+)");
    private static final Pattern EVERYWHERE = Pattern.compile("^([a-z ]+) everywhere");

    @Test
    void aRunnersTablesConsensusCountsItsOwnRunnersColumns() throws IOException {
        List<List<String>> rows = rows(golden("runners.md"));
        assertTrue(rows.size() >= 5, rows.toString());
        for (List<String> row : rows) {
            List<String> runners = row.subList(2, row.size() - 1);
            List<String> verdicts = new ArrayList<>();
            for (String r : runners) {
                Matcher m = VERDICT.matcher(r);
                assertTrue(m.find(), r);
                verdicts.add(m.group(1));
            }
            String consensus = row.get(row.size() - 1);
            Matcher on = ON.matcher(consensus);
            Matcher everywhere = EVERYWHERE.matcher(consensus);
            if (on.find()) {
                String verdict = on.group(1);
                assertEquals(
                        Long.parseLong(on.group(2)),
                        verdicts.stream().filter(verdict::equals).count(),
                        "the runners that say " + verdict + ": " + row);
                assertEquals(
                        Long.parseLong(on.group(3)),
                        verdicts.stream().filter(v -> !v.equals("no data")).count(),
                        "the runners that measured the cell: " + row);
            } else {
                assertTrue(everywhere.find(), consensus);
                assertTrue(verdicts.stream().allMatch(everywhere.group(1)::equals), row.toString());
            }
        }
    }

    private static final Pattern SHARE = Pattern.compile("the commit makes (\\d+)% of the whole change");
    private static final Pattern STEP = Pattern.compile("step (\\d+) \\(([0-9a-f]+)\\): the build failed");

    @Test
    void aBisectsShareAndFailedStepsAreItsTablesRows() throws IOException {
        List<String> lines = golden("bisect.md");
        List<List<String>> rows = rows(lines);
        String words =
                String.join("\n", lines.stream().filter(l -> !l.startsWith("|")).toList());
        Matcher share = SHARE.matcher(words);
        assertTrue(share.find(), words);
        double ends = percent(rows.stream()
                .filter(r -> r.get(3).equals("ends"))
                .findFirst()
                .orElseThrow()
                .get(7));
        double confirm = percent(rows.stream()
                .filter(r -> r.get(3).equals("confirm"))
                .reduce((a, b) -> b)
                .orElseThrow()
                .get(7));
        // From the table's own rounded changes, the share is within a point of the sentence's.
        assertEquals(100 * confirm / ends, Integer.parseInt(share.group(1)), 1.0, words);
        Matcher step = STEP.matcher(words);
        assertTrue(step.find(), words);
        List<String> row = rows.get(Integer.parseInt(step.group(1)) - 1);
        assertEquals(step.group(1), row.get(0));
        assertTrue(row.get(1).startsWith(step.group(2)), row.toString());
        assertEquals("no-data", row.get(10), row.toString());
    }

    private static double percent(String change) {
        return Double.parseDouble(change.substring(0, change.indexOf('%')));
    }

    private static final Pattern HEADLINE = Pattern.compile("(\\d+) new movements?, (\\d+) persisting");

    @Test
    void aSeriesHeadlineCountsTheMovementsItLists() throws IOException {
        for (String name : List.of("series-check.md", "series-rebased.md")) {
            List<String> lines = golden(name);
            Matcher m = HEADLINE.matcher(lines.get(0));
            assertTrue(m.find(), lines.get(0));
            assertEquals(Integer.parseInt(m.group(1)), section(lines, "**New**"), name);
            assertEquals(Integer.parseInt(m.group(2)), section(lines, "**Persisting**"), name);
            // A change quoted in a row is its ratio against its reference.
            for (List<String> row : rows(lines)) {
                double ratio = Double.parseDouble(row.get(2));
                double reference = Double.parseDouble(row.get(3));
                assertEquals(100 * (ratio / reference - 1), percent(row.get(4)), 0.1, name + ": " + row);
            }
        }
    }

    /** Returns how many table rows follow {@code title} before the next section; 0 without one. */
    private static int section(List<String> lines, String title) {
        int start = lines.indexOf(title);
        if (start < 0) {
            return 0;
        }
        int n = 0;
        for (String l : lines.subList(start + 1, lines.size())) {
            if (l.startsWith("**")) {
                break;
            }
            if (l.startsWith("|") && !l.startsWith("| key ") && !l.startsWith("|:--")) {
                n++;
            }
        }
        return n;
    }
}
