package org.perfab.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.perfab.model.Cell;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Measurement;
import org.perfab.model.RunResults;
import org.perfab.model.Side;
import org.perfab.model.Warning;
import org.perfab.stats.Direction;
import org.perfab.stats.Thresholds;

/** Runs made in memory for renderer tests: known trials, known values, hostile names. */
final class RunFixture {
    static final String HOSTILE = "evil|`code`<script>alert(1)</script> @everyone #123\n\u001b[31mred";

    private RunFixture() {
    }

    /** A run of {@code trials} per side over {@code cells}, each cell's value a function of (side, trial). */
    static RunResults run(String name, int trials, List<Cell> cells, Function<Cell, double[][]> values,
            List<Warning> warnings) {
        List<RunResults.TrialRecord> records = new ArrayList<>();
        List<Measurement> all = new ArrayList<>();
        int seq = 0;
        for (int i = 0; i < trials; i++) {
            Side first = i % 2 == 0 ? Side.BASE : Side.HEAD;
            for (Side side : List.of(first, first == Side.BASE ? Side.HEAD : Side.BASE)) {
                List<Measurement> ms = new ArrayList<>();
                for (Cell c : cells) {
                    double[] v = values.apply(c)[side.ordinal()];
                    if (i < v.length) {
                        ms.add(new Measurement(c, side, 0, i, v[i]));
                    }
                }
                all.addAll(ms);
                records.add(new RunResults.TrialRecord(seq++, side, 0, i, false, RunResults.Status.OK, "", 1.5, "", ms));
            }
        }
        ComparisonTable table = ComparisonTable.of("merge-base of main and feature (1111111111aa)",
                "feature (2222222222bb)", all, Thresholds.DEFAULT,
                c -> c.metric().equals("p50") && c.name().startsWith("batched/")).withWarnings(warnings);
        return new RunResults(name,
                new RunResults.Provenance("repo", new RunResults.Ref("main", "3".repeat(40)),
                        new RunResults.Ref("feature", "2222222222bb" + "2".repeat(28)), "1111111111aa" + "1".repeat(28),
                        "a".repeat(40), "b".repeat(40), false),
                new RunResults.Machine("AMD EPYC 7763 64-Core Processor", 4, "Linux amd64", "6.8.0", "OpenJDK 17",
                        "GitHub Actions 12 / ubuntu24"),
                new RunResults.Settings("perfab.yaml", trials, 1, 1, "head", "perfab-json", Optional.empty(),
                        List.of("batched/*:p50"), List.of(
                                new RunResults.HarnessFile("perfab.yaml", RunResults.HarnessFile.State.SAME),
                                new RunResults.HarnessFile("scripts/bench.sh", RunResults.HarnessFile.State.CHANGED),
                                new RunResults.HarnessFile("scripts/`@x`.sh", RunResults.HarnessFile.State.ADDED)),
                        List.of(), Optional.empty()),
                Instant.parse("2026-11-01T10:00:00Z"), Optional.of(Instant.parse("2026-11-01T10:20:00Z")), false,
                new RunResults.Timing(1200, 3, 95, 1090), records, table);
    }

    /** A broker-like run with every verdict and a hostile cell name. */
    static RunResults broker() {
        List<Cell> cells = List.of(
                new Cell("publish/256B/1sub", "throughput", "msg/s", Direction.HIGHER_IS_BETTER),
                new Cell("publish/64KiB/1sub", "throughput", "MB/s", Direction.HIGHER_IS_BETTER),
                new Cell("fanout/10sub", "p999", "us", Direction.LOWER_IS_BETTER),
                new Cell("fanout/1sub", "p50", "us", Direction.LOWER_IS_BETTER),
                new Cell("batched/1KiB", "p50", "ms", Direction.LOWER_IS_BETTER),
                new Cell("batched/1KiB", "throughput", "msg/s", Direction.HIGHER_IS_BETTER),
                new Cell(HOSTILE, "time", "ns/op", Direction.LOWER_IS_BETTER),
                new Cell("x".repeat(10_000), "time", "ns/op", Direction.LOWER_IS_BETTER),
                new Cell("removed/cell", "time", "ns/op", Direction.LOWER_IS_BETTER));
        return run("broker-pr", 5, cells, c -> switch (c.name() + ":" + c.metric()) {
            case "publish/256B/1sub:throughput" -> new double[][] {{12408, 12391, 12455, 12370, 12430},
                {11801, 11905, 11760, 11850, 11822}};
            case "publish/64KiB/1sub:throughput" -> new double[][] {{512.5, 509, 515.2, 511.1, 513},
                {567, 570.3, 566.1, 568.8, 569.5}};
            case "fanout/10sub:p999" -> new double[][] {{448, 390, 610, 455, 402}, {821, 420, 512, 700, 399}};
            case "fanout/1sub:p50" -> new double[][] {{68, 71, 66, 70, 69}, {69, 70, 67, 68, 70}};
            case "batched/1KiB:p50" -> new double[][] {{7.9, 8.4, 8.1, 8.0, 8.3}, {31, 34, 29.5, 33.1, 30.2}};
            case "batched/1KiB:throughput" -> new double[][] {{701000, 699500, 700200, 700900, 700000},
                {700100, 700800, 699900, 700400, 700300}};
            case "removed/cell:time" -> new double[][] {{10, 10.2, 10.1, 9.9, 10}, {}};
            default -> new double[][] {{5, 5.1, 4.9, 5, 5.05}, {5.05, 5, 4.95, 5.1, 4.9}};
        }, List.of(Warning.of(Warning.Kind.FAILED_TRIALS, List.of("head trial 3: the harness exited with code 139"),
                Map.of("trials", 12L))));
    }
}
