package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perfab.model.Cell;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Measurement;
import org.perfab.model.Side;
import org.perfab.stats.Direction;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

class RenderersTest {

    /** A table with every verdict, every caveat, and a hostile cell name. */
    static ComparisonTable fixture() {
        List<Measurement> m = new ArrayList<>();
        Cell throughput = new Cell("publish/256B/1sub", "throughput", "msg/s", Direction.HIGHER_IS_BETTER);
        add(m, throughput, Side.BASE, 12408, 12391, 12455, 12370, 12430);
        add(m, throughput, Side.HEAD, 11801, 11905, 11760, 11850, 11822);
        Cell p999 = new Cell("fanout/10sub", "p999", "us", Direction.LOWER_IS_BETTER);
        add(m, p999, Side.BASE, 448, 390, 610, 455, 402);
        add(m, p999, Side.HEAD, 821, 420, 512, 700, 399);
        Cell faster = new Cell("publish/64KiB/1sub", "time", "ns/op", Direction.LOWER_IS_BETTER);
        double[] baseTimes = {1520.5, 1533.1, 1518.9, 1527.0};
        double[] headTimes = {1356.2, 1360.8, 1349.9, 1355.0};
        add(m, faster, Side.BASE, baseTimes);
        add(m, faster, Side.HEAD, headTimes);
        // The same benchmark's throughput, computed from its time: one measurement, one verdict.
        Cell bytes = new Cell("publish/64KiB/1sub", "throughput", "MB/s", Direction.HIGHER_IS_BETTER);
        add(
                m,
                bytes,
                Side.BASE,
                java.util.Arrays.stream(baseTimes).map(t -> 65536e3 / t).toArray());
        add(
                m,
                bytes,
                Side.HEAD,
                java.util.Arrays.stream(headTimes).map(t -> 65536e3 / t).toArray());
        Cell none = new Cell("publish/64KiB/1sub", "allocs", "allocs/op", Direction.LOWER_IS_BETTER);
        add(m, none, Side.BASE, 0, 0, 0, 0);
        add(m, none, Side.HEAD, 0, 0, 0, 0);
        Cell small = new Cell("publish/256B/10sub", "throughput", "msg/s", Direction.HIGHER_IS_BETTER);
        add(m, small, Side.BASE, 4674, 4680, 4669, 4677, 4671);
        add(m, small, Side.HEAD, 4566, 4570, 4560, 4572, 4565);
        Cell same = new Cell("batched/1KiB", "throughput", "msg/s", Direction.HIGHER_IS_BETTER);
        add(m, same, Side.BASE, 701000, 699500, 700200, 700900);
        add(m, same, Side.HEAD, 700100, 700800, 699900, 700400);
        Cell noisy = new Cell("startup", "wall", "s", Direction.LOWER_IS_BETTER);
        add(m, noisy, Side.BASE, 0.81, 1.02, 0.77);
        add(m, noisy, Side.HEAD, 0.84, 0.99, 0.80);
        Cell profile = new Cell("batched/1KiB", "p50", "ms", Direction.LOWER_IS_BETTER);
        add(m, profile, Side.BASE, 7.9, 8.4, 8.1);
        add(m, profile, Side.HEAD, 31.0, 34.0, 29.5);
        Cell zero = new Cell("alloc/path", "allocs", "allocs/op", Direction.LOWER_IS_BETTER);
        add(m, zero, Side.BASE, 0, 0, 0);
        add(m, zero, Side.HEAD, 2, 2, 2);
        Cell gone = new Cell("removed/bench", "time", "ns/op", Direction.LOWER_IS_BETTER);
        add(m, gone, Side.BASE, 10, 11, 12);
        Cell hostile = new Cell(
                "evil|`code`<script>@everyone #123\n\u001b[31mred", "time", "ns/op", Direction.LOWER_IS_BETTER);
        add(m, hostile, Side.BASE, 5, 5.1, 4.9);
        add(m, hostile, Side.HEAD, 5.05, 5, 4.95);
        return ComparisonTable.of(
                "base.json",
                "head.json",
                m,
                Thresholds.DEFAULT,
                c -> c.metric().equals("p50") && c.name().startsWith("batched/"));
    }

    private static void add(List<Measurement> m, Cell cell, Side side, double... values) {
        for (int i = 0; i < values.length; i++) {
            m.add(new Measurement(cell, side, 0, i, values[i]));
        }
    }

    @Test
    void fixtureHasEveryVerdict() {
        for (Verdict v : Verdict.values()) {
            assertTrue(fixture().counts().get(v) > 0, v.id());
        }
        assertTrue(fixture().rows().stream().anyMatch(r -> r.sameAs().isPresent()), "a row that follows another");
        assertTrue(fixture().rows().stream().anyMatch(r -> r.allZero()), "a row of zeros");
    }

    @Test
    void jsonCarriesTheContractFields() throws Exception {
        JsonNode root = new ObjectMapper().readTree(Products.AB.render(Report.of(fixture()), Format.JSON));
        assertEquals("perfab/comparison/v2", root.get("schema").asText());
        JsonNode first = root.get("comparisons").get(0);
        for (String field : List.of(
                "cell",
                "metric",
                "unit",
                "direction",
                "verdict",
                "pctChange",
                "ci95",
                "pValue",
                "statistic",
                "mde",
                "base",
                "head")) {
            assertTrue(first.has(field), field);
        }
        assertEquals("welch-t", first.get("statistic").get("name").asText());
        assertTrue(first.get("statistic").has("value") && first.get("statistic").has("df"), first.toString());
        assertTrue(!first.has("t") && !first.has("df"), "Welch's figures only under the statistic's name");
        boolean measured = false;
        for (JsonNode c : root.get("comparisons")) {
            measured |= c.get("statistic").get("value").isNumber()
                    && c.get("statistic").get("df").isNumber()
                    && c.get("mde").isNumber();
        }
        assertTrue(measured, "a row of ordinary trials has Welch's t, its df and its detectable effect");
        for (String field : List.of("n", "mean", "median", "stddev", "cv", "min", "max")) {
            assertTrue(first.get("base").has(field), field);
        }
        assertEquals("regression", first.get("verdict").asText());
        JsonNode gone = null;
        for (JsonNode c : root.get("comparisons")) {
            if (c.get("cell").asText().equals("removed/bench")) {
                gone = c;
            }
        }
        assertEquals("no-data", gone.get("verdict").asText());
        assertTrue(gone.get("pValue").isNull());
        assertTrue(
                gone.get("statistic").get("value").isNull()
                        && gone.get("statistic").get("df").isNull()
                        && gone.get("mde").isNull(),
                gone.toString());
        assertEquals(0, gone.get("head").get("n").asInt());
        assertTrue(gone.get("head").get("mean").isNull());
    }

    @Test
    void markdownNeverLetsACellNameBreakOutOfItsCell() {
        String md = Products.AB.render(Report.of(fixture()), Format.MARKDOWN);
        assertFalse(md.contains("<script>"));
        assertFalse(md.contains("@everyone"));
        assertFalse(md.contains("#123"));
        assertFalse(md.contains("\u001b"));
        for (String line : md.split("\n")) {
            if (line.startsWith("| evil")) {
                // 7 columns: 8 unescaped pipes
                assertEquals(
                        8, line.replace("\\|", "").chars().filter(c -> c == '|').count(), line);
            }
        }
    }

    @Test
    void colouredTextIsThePlainTextWithItsVerdictsColoured() {
        String plain = Products.AB.render(Report.of(fixture()), Format.TEXT);
        String coloured = Products.AB.renderer(Format.TEXT, true).render(Report.of(fixture()));
        assertEquals(plain, coloured.replaceAll("\u001b\\[[0-9;]*m", ""), "the same text, aligned the same");
        assertTrue(coloured.contains("\u001b[31mregression\u001b[0m"), coloured);
        assertTrue(coloured.contains("\u001b[32mimprovement\u001b[0m"), coloured);
        assertTrue(coloured.contains("\u001b[35mtoo noisy\u001b[0m"), coloured);
        assertEquals(plain, Products.AB.renderer(Format.TEXT, false).render(Report.of(fixture())));
        assertEquals(
                Products.AB.render(Report.of(fixture()), Format.MARKDOWN),
                Products.AB.renderer(Format.MARKDOWN, true).render(Report.of(fixture())),
                "only text is coloured");
    }

    @Test
    void textStripsTerminalControlSequences() {
        assertFalse(Products.AB.render(Report.of(fixture()), Format.TEXT).contains("\u001b"));
    }

    @Test
    void boundsAVeryLongCellName() {
        String shown = Untrusted.plain("x".repeat(10_000));
        assertEquals(Untrusted.MAX_LENGTH, shown.codePointCount(0, shown.length()));
        assertTrue(shown.contains("\u2026"));
    }

    @Test
    void rejectsOneCellWithTwoUnits() {
        List<Measurement> m = new ArrayList<>();
        add(m, new Cell("a", "time", "ns", Direction.LOWER_IS_BETTER), Side.BASE, 1, 2);
        add(m, new Cell("a", "time", "us", Direction.LOWER_IS_BETTER), Side.HEAD, 1, 2);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> ComparisonTable.of("b", "h", m, Thresholds.DEFAULT, c -> false));
        assertTrue(e.getMessage().contains("'a' (time)") && e.getMessage().contains("'us'"), e.getMessage());
    }
}
