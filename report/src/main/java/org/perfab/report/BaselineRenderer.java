package org.perfab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.perfab.model.Baseline;
import org.perfab.model.BaselineCheck;
import org.perfab.model.BaselineDiff;
import org.perfab.model.BaselineUpdate;
import org.perfab.model.Ids;
import org.perfab.model.TableJson;
import org.perfab.stats.RatioSpace;

/**
 * Renders a ratchet baseline's seeding report, a snapshot's check against it, two baselines side by
 * side, and measured noise floors. Benchmark names, machine keys, processor models and file names
 * come from files a CI run wrote, so every one is escaped for where it goes.
 */
final class BaselineRenderer {
    /** How many items of a long list a text or Markdown report names before it counts the rest. */
    static final int LISTED = 20;

    private BaselineRenderer() {}

    // ---- seed ---------------------------------------------------------------------------------

    /**
     * Returns what seeding {@code seeded} did: the tiers seeded, the snapshots rejected, what was
     * left out and noticed, for a terminal or ({@code md}) in Markdown. Its JSON is the seeded
     * baseline itself ({@link Baseline#write}).
     */
    static String seed(Baseline seeded, boolean md) {
        UnaryOperator<String> esc = escape(md);
        StringBuilder out = new StringBuilder();
        int floors = seeded.entries().size();
        String head = "perfab baseline seed: " + seeded.tiers().size() + " tier"
                + Words.plural(seeded.tiers().size()) + " seeded, " + floors + " floor" + Words.plural(floors)
                + ", in ratio space against " + esc.apply(seeded.anchor());
        out.append(md ? "### " + head + "\n\n" : head + "\n\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {
            "tier", "window", "counted", "floors", "anchor against the window's", "ratio offset, median / worst", "cpus"
        });
        for (Baseline.Tier t : seeded.tiers()) {
            rows.add(tierRow(seeded, t, esc));
        }
        if (seeded.tiers().isEmpty()) {
            out.append("No tier was seeded.\n\n");
        } else {
            out.append(md ? Tables.markdown(rows, "|:--|--:|--:|--:|:--|:--|:--|") : Tables.aligned(rows))
                    .append('\n');
        }
        seedingSections(out, md, seeded.seeding());
        return out.toString();
    }

    /**
     * Returns the row of the seeding table for {@code t}: its key, how many of its window's
     * snapshots were counted, its floors, its anchor's spread against the window's, and its offsets.
     */
    private static String[] tierRow(Baseline seeded, Baseline.Tier t, UnaryOperator<String> esc) {
        List<Baseline.Member> judged = t.members().stream()
                .filter(m -> m.fate() != RatioSpace.Fate.NO_ANCHOR)
                .toList();
        double lowDev = judged.stream()
                .mapToDouble(Baseline.Member::anchorDeviation)
                .min()
                .orElse(Double.NaN);
        double highDev = judged.stream()
                .mapToDouble(Baseline.Member::anchorDeviation)
                .max()
                .orElse(Double.NaN);
        double[] offsets = judged.stream()
                .mapToDouble(Baseline.Member::offset)
                .filter(d -> !Double.isNaN(d))
                .map(Math::abs)
                .sorted()
                .toArray();
        String offset = offsets.length == 0
                ? "not judged (under " + RatioSpace.MIN_GATED + " snapshots)"
                : percent2(offsets[offsets.length / 2]) + " / " + percent2(offsets[offsets.length - 1]);
        long counted = t.members().stream()
                .filter(m -> m.fate() == RatioSpace.Fate.ACCEPTED)
                .count();
        return new String[] {
            esc.apply(t.key().toString()),
            t.members().size() + " of " + t.window(),
            Long.toString(counted),
            Integer.toString(seeded.entries(t.key()).size()),
            Numbers.signedPercent(lowDev) + " … " + Numbers.signedPercent(highDev),
            offset,
            esc.apply(String.join(", ", t.cpus()))
        };
    }

    /** Appends what seeding set aside or noticed: rejected and skipped snapshots, notes, exclusions. */
    private static void seedingSections(StringBuilder out, boolean md, Baseline.Seeding r) {
        UnaryOperator<String> esc = escape(md);
        UnaryOperator<String> prose = prose(md);
        section(
                out,
                md,
                "Rejected",
                r.rejected().stream()
                        .map(x -> esc.apply(x.snapshot()) + " ("
                                + esc.apply(x.key().toString()) + "): " + prose.apply(x.reason()))
                        .toList());
        section(
                out,
                md,
                "Skipped, file names that are not a snapshot's (DATE-SHA-MACHINESLUG.json)",
                r.unparseable().stream().map(esc).toList());
        section(
                out,
                md,
                "Skipped",
                r.skipped().stream()
                        .map(x -> esc.apply(x.subject())
                                + x.key()
                                        .map(k -> " (" + esc.apply(k.toString()) + ")")
                                        .orElse("") + ": " + prose.apply(x.reason()))
                        .toList());
        for (Baseline.NoteKind kind : Baseline.NoteKind.values()) {
            section(
                    out,
                    md,
                    switch (kind) {
                        case ITERATIONS_MOVED -> "Iteration counts that moved across the window";
                        case NAME_DISAGREES -> "File names that disagree with their content";
                        case NOT_JUDGED -> "Tiers whose coherence was not judged";
                    },
                    r.notes().stream()
                            .filter(n -> n.kind() == kind)
                            .map(n -> esc.apply(n.subject())
                                    + n.key()
                                            .map(k -> " (" + esc.apply(k.toString()) + ")")
                                            .orElse("") + ": " + prose.apply(n.detail()))
                            .toList());
        }
        section(
                out,
                md,
                "Exclusion prefixes that match nothing (stale)",
                r.staleExclusions().stream().map(esc).toList());
        if (!r.liveExclusions().isEmpty()) {
            out.append("Exclusion prefixes in use: ")
                    .append(r.liveExclusions().stream().map(esc).collect(Collectors.joining(", ")))
                    .append(".\n");
        }
    }

    private static void section(StringBuilder out, boolean md, String title, List<String> items) {
        if (items.isEmpty()) {
            return;
        }
        out.append(md ? "**" + title + "** (" + items.size() + ")\n\n" : title + " (" + items.size() + "):\n");
        items.stream()
                .limit(LISTED)
                .forEach(i -> out.append(md ? "- " : "  ").append(i).append('\n'));
        if (items.size() > LISTED) {
            out.append(md ? "- " : "  ")
                    .append("and ")
                    .append(items.size() - LISTED)
                    .append(" more\n");
        }
        out.append('\n');
    }

    // ---- check --------------------------------------------------------------------------------

    /** Returns the count line of a check. */
    static String count(BaselineCheck c) {
        return "perfab baseline check: " + c.count(BaselineCheck.Status.REGRESSED) + " regressed, "
                + c.count(BaselineCheck.Status.MISSING) + " missing, " + c.count(BaselineCheck.Status.NEW) + " new, "
                + c.count(BaselineCheck.Status.OK) + " ok, on "
                + Untrusted.plain(c.key().toString(), 80)
                + (c.budget().floor().isPresent()
                        ? " against each benchmark's measured budget"
                        : " against budget " + Numbers.percent(c.budget().percent()));
    }

    /** Returns what the budget was and where it came from, in words. */
    static String budget(BaselineCheck.Budget b) {
        if (b.floor().isEmpty()) {
            return "budget " + Numbers.percent(b.percent()) + " (given)";
        }
        Baseline.Floor f = b.floor().get();
        String x = Numbers.value(b.multiple()) + " × ";
        return "budget auto: " + x + "each benchmark's own spread between " + f.snapshots() + " control snapshots"
                + " of this tier (measured " + f.date() + "), at least " + x + percent2(f.p50()) + " (the tier's"
                + " median); " + x + percent2(f.p95()) + " (the tier's 95th percentile) for a benchmark the controls"
                + " lacked";
    }

    private static List<String> context(BaselineCheck c, UnaryOperator<String> esc) {
        List<String> lines = new ArrayList<>();
        lines.add("Snapshot " + esc.apply(c.snapshot()) + " (commit "
                + esc.apply(c.commit().isEmpty() ? "unknown" : Ids.shortId(c.commit())) + ", " + esc.apply(c.cpu())
                + "); "
                + budget(c.budget()) + ".");
        if (!c.known()) {
            lines.add("The baseline has no floors for " + esc.apply(c.key().toString()) + ": every benchmark is new."
                    + " Seed the tier to check it.");
        } else if (!Double.isNaN(c.hostSpeed())) {
            lines.add("This host ran the anchor " + percent2(Math.abs(c.hostSpeed()))
                    + (c.hostSpeed() < 0 ? " faster" : " slower")
                    + " than the baseline's window; ratios divide that out.");
        }
        if (c.incoherent()) {
            lines.add(
                    "⚠ The ratios moved together, by " + Numbers.signedPercent(c.offset()) + " at the median, past the"
                            + " coherence tolerance: the anchor itself likely caught a slow or fast tail, and every row moved"
                            + " with it. Rerun before believing a regressed row; an update takes nothing from this run.");
        }
        if (!c.excluded().isEmpty()) {
            lines.add(c.excluded().size() + " benchmark"
                    + Words.plural(c.excluded().size()) + " excluded by "
                    + c.liveExclusions().stream().map(esc).collect(Collectors.joining(", ")) + ".");
        }
        if (!c.staleExclusions().isEmpty()) {
            lines.add("Exclusion prefixes that match nothing (stale): "
                    + c.staleExclusions().stream().map(esc).collect(Collectors.joining(", ")) + ".");
        }
        return lines;
    }

    /** Returns a check for a terminal or ({@code md}) in Markdown, the rows past the budget first. */
    static String checkText(BaselineCheck c, boolean md) {
        UnaryOperator<String> esc = escape(md);
        StringBuilder out =
                new StringBuilder(md ? "### " + Untrusted.markdown(count(c), 300) + "\n\n" : count(c) + "\n");
        context(c, esc).forEach(l -> out.append(l).append(md ? "\n\n" : "\n"));
        if (!md) {
            out.append('\n');
        }
        List<String[]> shown = new ArrayList<>();
        List<String[]> ok = new ArrayList<>();
        boolean auto = c.budget().floor().isPresent();
        List<String> header =
                new ArrayList<>(List.of("status", "benchmark", "floor", "ratio", "change", "value", "unit"));
        if (auto) {
            header.add("budget");
        }
        for (BaselineCheck.Row r : c.rows()) {
            List<String> row = new ArrayList<>(List.of(
                    r.status().name().toLowerCase(Locale.ROOT),
                    esc.apply(r.benchmark()),
                    Numbers.value(r.floor()),
                    Numbers.value(r.ratio()),
                    Numbers.signedPercent(r.change()),
                    Numbers.value(r.value()),
                    esc.apply(r.unit())));
            if (auto) {
                row.add(Numbers.percent(r.budget()));
            }
            (r.status() == BaselineCheck.Status.OK ? ok : shown).add(row.toArray(String[]::new));
        }
        if (!md) {
            List<String[]> all = new ArrayList<>();
            all.add(header.toArray(String[]::new));
            all.addAll(shown);
            all.addAll(ok);
            return out.append(Tables.aligned(all, new boolean[] {false, false, true, true, true, true, false, true}))
                    .toString();
        }
        String align = "|:--|:--|--:|--:|--:|--:|:--|" + (auto ? "--:|" : "");
        if (!shown.isEmpty()) {
            List<String[]> t = new ArrayList<>();
            t.add(header.toArray(String[]::new));
            t.addAll(shown);
            out.append(Tables.markdown(t, align)).append('\n');
        }
        if (!ok.isEmpty()) {
            List<String[]> t = new ArrayList<>();
            t.add(header.toArray(String[]::new));
            t.addAll(ok);
            out.append("<details><summary>")
                    .append(ok.size())
                    .append(" within budget</summary>\n\n")
                    .append(Tables.markdown(t, align))
                    .append("\n</details>\n");
        }
        return out.toString();
    }

    /** Returns a check as schema {@code perfab/baseline-check/v1}. */
    static String checkJson(BaselineCheck c) {
        ObjectNode root = Json.object();
        root.put("schema", "perfab/baseline-check/v1")
                .put("snapshot", c.snapshot())
                .put("machine", c.key().machine())
                .put("arch", c.key().arch())
                .put("commit", c.commit())
                .put("cpu", c.cpu())
                .put("known", c.known());
        ObjectNode budget = root.putObject("budget")
                .put("percent", c.budget().percent())
                .put("source", c.budget().floor().isPresent() ? "auto" : "given");
        if (c.budget().floor().isPresent()) {
            budget.put("multiple", c.budget().multiple())
                    .put("p95", c.budget().floor().get().p95())
                    .put("measured", c.budget().floor().get().date().toString());
        }
        TableJson.number(root, "hostSpeed", c.hostSpeed());
        TableJson.number(root, "offset", c.offset());
        root.put("incoherent", c.incoherent());
        ObjectNode counts = root.putObject("counts");
        for (BaselineCheck.Status s : BaselineCheck.Status.values()) {
            counts.put(s.name().toLowerCase(Locale.ROOT), c.count(s));
        }
        ArrayNode rows = root.putArray("benchmarks");
        for (BaselineCheck.Row r : c.rows()) {
            ObjectNode n = rows.addObject()
                    .put("name", r.benchmark())
                    .put("status", r.status().name());
            TableJson.number(n, "floor", r.floor());
            TableJson.number(n, "ratio", r.ratio());
            TableJson.number(n, "change", r.change());
            TableJson.number(n, "value", r.value());
            n.put("unit", r.unit()).put("budget", r.budget());
        }
        ArrayNode excluded = root.putArray("excluded");
        c.excluded().forEach(excluded::add);
        ArrayNode stale = root.putArray("staleExclusions");
        c.staleExclusions().forEach(stale::add);
        return Json.write(root);
    }

    /**
     * Returns a {@code ::warning} per regressed benchmark, within GitHub's ten, and a notice when the
     * ratios moved together.
     */
    static String checkGithub(BaselineCheck c) {
        StringBuilder out = new StringBuilder();
        List<String> regressed = c.rows().stream()
                .filter(r -> r.status() == BaselineCheck.Status.REGRESSED)
                .map(r -> Untrusted.plain(r.benchmark(), Untrusted.MAX_LENGTH) + ": ratio " + Numbers.value(r.ratio())
                        + " against its floor " + Numbers.value(r.floor()) + " (" + Numbers.signedPercent(r.change())
                        + ", budget " + Numbers.percent(r.budget()) + ") on "
                        + Untrusted.plain(c.key().toString(), Untrusted.MAX_LENGTH))
                .toList();
        Workflow.annotate(
                out,
                "warning",
                "perfab baseline: regressed",
                regressed,
                Workflow.PER_TYPE,
                more -> "and " + more + " more regressed; see the job summary");
        if (c.incoherent()) {
            out.append(Workflow.command(
                    "notice",
                    "perfab baseline",
                    "the ratios moved together by "
                            + Numbers.signedPercent(c.offset())
                            + ": the anchor likely caught a tail; rerun before believing a"
                            + " regressed row"));
        }
        return out.toString();
    }

    /** Returns a line per benchmark of a check: its status, floor, ratio, change and budget. */
    static String checkCsv(BaselineCheck c) {
        Csv out = new Csv("status", "benchmark", "floor", "ratio", "change %", "value", "unit", "budget %");
        for (BaselineCheck.Row r : c.rows()) {
            out.line(
                    r.status().name().toLowerCase(Locale.ROOT),
                    r.benchmark(),
                    Csv.number(r.floor()),
                    Csv.number(r.ratio()),
                    Csv.number(r.change()),
                    Csv.number(r.value()),
                    r.unit(),
                    Csv.number(r.budget()));
        }
        return out.text();
    }

    // ---- diff ---------------------------------------------------------------------------------

    /** Returns two baselines side by side, for a terminal or ({@code md}) in Markdown. */
    static String diff(BaselinePair pair, boolean md) {
        BaselineDiff d = pair.diff();
        String first = pair.first();
        String second = pair.second();
        UnaryOperator<String> esc = escape(md);
        StringBuilder out = new StringBuilder();
        BaselineDiff.Share all = d.tiers().get(d.tiers().size() - 1);
        String head = "perfab baseline diff: " + all.floors() + " floor" + Words.plural(all.floors()) + " in both, "
                + d.onlyFirst() + " only in " + esc.apply(first) + ", " + d.onlySecond() + " only in "
                + esc.apply(second);
        out.append(md ? "### " + head + "\n\n" : head + "\n\n");
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("tier", "floors in both"));
        BaselineDiff.THRESHOLDS.forEach(t -> header.add("differ by more than " + Numbers.value(t) + "%"));
        rows.add(header.toArray(String[]::new));
        for (BaselineDiff.Share s : d.tiers()) {
            List<String> row = new ArrayList<>(List.of(
                    s.key().map(k -> esc.apply(k.toString())).orElse(md ? "**all**" : "all"),
                    Integer.toString(s.floors())));
            s.past()
                    .forEach(n -> row.add(
                            n + " (" + Numbers.percent(s.floors() == 0 ? Double.NaN : 100.0 * n / s.floors()) + ")"));
            rows.add(row.toArray(String[]::new));
        }
        out.append(
                md
                        ? Tables.markdown(rows, "|:--|--:|--:|--:|--:|")
                        : Tables.aligned(rows, new boolean[] {false, true, true, true, true}));
        List<BaselineDiff.Row> largest =
                d.rows().stream().limit(10).filter(r -> r.change() != 0).toList();
        if (!largest.isEmpty()) {
            out.append(md ? "\n**Largest differences**\n\n" : "\nLargest differences:\n");
            List<String[]> l = new ArrayList<>();
            l.add(new String[] {"tier", "benchmark", esc.apply(first), esc.apply(second), "change"});
            largest.forEach(r -> l.add(new String[] {
                esc.apply(r.key().toString()),
                esc.apply(r.benchmark()),
                Numbers.value(r.firstRatio()),
                Numbers.value(r.secondRatio()),
                Numbers.signedPercent(r.change())
            }));
            out.append(
                    md
                            ? Tables.markdown(l, "|:--|:--|--:|--:|--:|")
                            : Tables.aligned(l, new boolean[] {false, false, true, true, true}));
        }
        return out.toString();
    }

    /** Returns two baselines side by side as schema {@code perfab/baseline-diff/v1}. */
    static String diffJson(BaselinePair pair) {
        BaselineDiff d = pair.diff();
        String first = pair.first();
        String second = pair.second();
        ObjectNode root = Json.object();
        root.put("schema", "perfab/baseline-diff/v1")
                .put("first", first)
                .put("second", second)
                .put("onlyFirst", d.onlyFirst())
                .put("onlySecond", d.onlySecond());
        ArrayNode thresholds = root.putArray("thresholds");
        BaselineDiff.THRESHOLDS.forEach(thresholds::add);
        ArrayNode tiers = root.putArray("tiers");
        for (BaselineDiff.Share s : d.tiers()) {
            ObjectNode n = tiers.addObject();
            if (s.key().isPresent()) {
                n.put("machine", s.key().get().machine())
                        .put("arch", s.key().get().arch());
            } else {
                n.putNull("machine").putNull("arch");
            }
            n.put("floors", s.floors());
            ArrayNode past = n.putArray("past");
            s.past().forEach(past::add);
        }
        ArrayNode rows = root.putArray("floors");
        d.rows()
                .forEach(r -> rows.addObject()
                        .put("machine", r.key().machine())
                        .put("arch", r.key().arch())
                        .put("benchmark", r.benchmark())
                        .put("first", r.firstRatio())
                        .put("second", r.secondRatio())
                        .put("change", r.change()));
        return Json.write(root);
    }

    /** Returns a line per floor both baselines have: its tier, benchmark, both ratios and the change. */
    static String diffCsv(BaselinePair pair) {
        Csv out = new Csv("machine", "arch", "benchmark", pair.first(), pair.second(), "change %");
        pair.diff()
                .rows()
                .forEach(r -> out.line(
                        r.key().machine(),
                        r.key().arch(),
                        r.benchmark(),
                        Csv.number(r.firstRatio()),
                        Csv.number(r.secondRatio()),
                        Csv.number(r.change())));
        return out.text();
    }

    // ---- floor --------------------------------------------------------------------------------

    /** Returns measured noise floors as schema {@code perfab/baseline-floor/v1}. */
    static String floorsJson(FloorTable table) {
        ObjectNode root = Json.object();
        root.put("schema", "perfab/baseline-floor/v1").put("multiple", table.multiple());
        ArrayNode list = root.putArray("tiers");
        for (Baseline.Floor f : table.floors()) {
            list.addObject()
                    .put("machine", f.key().machine())
                    .put("arch", f.key().arch())
                    .put("snapshots", f.snapshots())
                    .put("pairs", f.pairs())
                    .put("values", f.values())
                    .put("p50", f.p50())
                    .put("p90", f.p90())
                    .put("p95", f.p95())
                    .put("p99", f.p99())
                    .put("max", f.max())
                    .put("budget", table.multiple() * f.p95())
                    .put("date", f.date().toString());
        }
        return Json.write(root);
    }

    /**
     * Returns measured noise floors, for a terminal or ({@code md}) in Markdown, and the budget
     * {@code check --budget auto} would apply.
     */
    static String floors(FloorTable table, boolean md) {
        List<Baseline.Floor> floors = table.floors();
        double multiple = table.multiple();
        UnaryOperator<String> esc = escape(md);
        StringBuilder out = new StringBuilder();
        String head = "perfab baseline floor: the spread of ratios between control snapshots (builds that cannot"
                + " differ), the larger ratio of each pair over the smaller, over every pair and benchmark";
        out.append(md ? "### " + head + "\n\n" : head + "\n\n");
        if (floors.isEmpty()) {
            return out.append("No tier has two control snapshots with the anchor.\n")
                    .toString();
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {
            "tier", "snapshots", "pairs", "median", "90th", "95th", "99th", "max", "budget auto, median / max"
        });
        for (Baseline.Floor f : floors) {
            BaselineCheck.Budget auto = BaselineCheck.Budget.auto(f, multiple);
            double[] budgets = f.benchmarks().keySet().stream()
                    .mapToDouble(auto::of)
                    .sorted()
                    .toArray();
            rows.add(new String[] {
                esc.apply(f.key().toString()),
                Integer.toString(f.snapshots()),
                Long.toString(f.pairs()),
                percent2(f.p50()),
                percent2(f.p90()),
                percent2(f.p95()),
                percent2(f.p99()),
                percent2(f.max()),
                budgets.length == 0
                        ? Numbers.UNDEFINED
                        : percent2(budgets[budgets.length / 2]) + " / " + percent2(budgets[budgets.length - 1])
            });
        }
        out.append(
                md
                        ? Tables.markdown(rows, "|:--|--:|--:|--:|--:|--:|--:|--:|--:|")
                        : Tables.aligned(rows, new boolean[] {false, true, true, true, true, true, true, true, true}));
        String x = Numbers.value(multiple) + " × ";
        out.append('\n')
                .append("'check --budget auto' gives each benchmark ")
                .append(x)
                .append("its own spread (what"
                        + " its 95th percentile would be for normal noise, from the median absolute deviation of its control"
                        + " ratios), at least ")
                .append(x)
                .append("its tier's median, and a benchmark the controls lacked ")
                .append(x)
                .append("its tier's 95th percentile.\n");
        return out.toString();
    }

    /** Returns a line per tier of measured floors: its spread's percentiles and the budget from them. */
    static String floorsCsv(FloorTable table) {
        Csv out = new Csv(
                "machine",
                "arch",
                "snapshots",
                "pairs",
                "values",
                "p50 %",
                "p90 %",
                "p95 %",
                "p99 %",
                "max %",
                "budget %",
                "date");
        for (Baseline.Floor f : table.floors()) {
            out.line(
                    f.key().machine(),
                    f.key().arch(),
                    Integer.toString(f.snapshots()),
                    Long.toString(f.pairs()),
                    Long.toString(f.values()),
                    Csv.number(f.p50()),
                    Csv.number(f.p90()),
                    Csv.number(f.p95()),
                    Csv.number(f.p99()),
                    Csv.number(f.max()),
                    Csv.number(table.multiple() * f.p95()),
                    f.date().toString());
        }
        return out.text();
    }

    // ---- update -------------------------------------------------------------------------------

    /**
     * Returns what ratcheting did, a line per snapshot in the order taken, each followed by its notes
     * (a snapshot older than its tier's window, a floor that fell past the drop tolerance); in
     * Markdown, under a heading that counts the floors lowered.
     */
    static String update(BaselineUpdate u, boolean md) {
        UnaryOperator<String> esc = escape(md);
        StringBuilder out = new StringBuilder();
        if (md) {
            out.append("### perfab baseline update: ")
                    .append(u.lowered())
                    .append(" floor")
                    .append(Words.plural(u.lowered()))
                    .append(" lowered by ")
                    .append(u.steps().size())
                    .append(" snapshot")
                    .append(Words.plural(u.steps().size()))
                    .append("\n\n");
        }
        String item = md ? "- " : "";
        String note = md ? "  - " : "  note: ";
        for (BaselineUpdate.Step step : u.steps()) {
            BaselineCheck c = step.check();
            String where = esc.apply(step.snapshot()) + " (" + esc.apply(c.key().toString()) + ")";
            if (!c.known()) {
                out.append(item).append(where).append(": the baseline has no floors for this tier; seed it\n");
                continue;
            }
            if (c.incoherent()) {
                out.append(item)
                        .append(where)
                        .append(": not taken: its ratios moved together by ")
                        .append(String.format(Locale.ROOT, "%+.1f%%", c.offset()))
                        .append(", past the coherence tolerance of ")
                        .append(Numbers.value(u.tolerance()))
                        .append("%; its anchor likely caught a tail\n");
                continue;
            }
            int fresh = c.count(BaselineCheck.Status.NEW);
            int lowered = step.lowered().size();
            out.append(item)
                    .append(where)
                    .append(": ")
                    .append(lowered)
                    .append(" floor")
                    .append(Words.plural(lowered))
                    .append(" ratcheted down")
                    .append(
                            fresh == 0
                                    ? ""
                                    : "; " + fresh + " new benchmark" + Words.plural(fresh)
                                            + " not added (seed to add them)")
                    .append('\n');
            step.seeded()
                    .ifPresent(d -> out.append(note)
                            .append("it is older than the window its tier was seeded"
                                    + " from (the newest of which is ")
                            .append(d)
                            .append("): its floors go back in time\n"));
            for (BaselineUpdate.Lowered l : step.beyond(u.dropTolerance())) {
                out.append(note)
                        .append(String.format(
                                Locale.ROOT,
                                "%s fell %.1f%% (ratio %.4g to %.4g), more than"
                                        + " the --drop-tolerance of %s%%: check that it still does its work",
                                esc.apply(l.benchmark()),
                                l.drop(),
                                l.from(),
                                l.to(),
                                Numbers.value(u.dropTolerance())))
                        .append('\n');
            }
        }
        return out.toString();
    }

    /** Returns what ratcheting did as schema {@code perfab/baseline-update/v1}. */
    static String updateJson(BaselineUpdate u) {
        ObjectNode root = Json.object();
        root.put("schema", "perfab/baseline-update/v1").put("lowered", u.lowered());
        root.put("coherenceTolerance", u.tolerance()).put("dropTolerance", u.dropTolerance());
        ArrayNode steps = root.putArray("snapshots");
        for (BaselineUpdate.Step step : u.steps()) {
            BaselineCheck c = step.check();
            ObjectNode n = steps.addObject()
                    .put("snapshot", step.snapshot())
                    .put("machine", c.key().machine())
                    .put("arch", c.key().arch())
                    .put("known", c.known())
                    .put("incoherent", c.incoherent());
            TableJson.number(n, "offset", c.offset());
            n.put("newBenchmarks", c.count(BaselineCheck.Status.NEW));
            n.put("olderThanWindow", step.seeded().map(Object::toString).orElse(null));
            ArrayNode lowered = n.putArray("lowered");
            for (BaselineUpdate.Lowered l : step.lowered()) {
                ObjectNode o = lowered.addObject().put("name", l.benchmark());
                TableJson.number(o, "from", l.from());
                TableJson.number(o, "to", l.to());
                TableJson.number(o, "drop", l.drop());
                o.put("pastDropTolerance", l.drop() > u.dropTolerance());
            }
        }
        return Json.write(root);
    }

    /**
     * Returns an annotation for each floor that fell past the drop tolerance (a benchmark that may
     * have stopped doing its work), each snapshot of a tier the baseline lacks, and each not taken.
     */
    static String updateGithub(BaselineUpdate u) {
        List<String> fell = new ArrayList<>();
        StringBuilder out = new StringBuilder();
        for (BaselineUpdate.Step step : u.steps()) {
            BaselineCheck c = step.check();
            String where = Untrusted.plain(step.snapshot(), Untrusted.MAX_LENGTH) + " ("
                    + Untrusted.plain(c.key().toString(), Untrusted.MAX_LENGTH) + ")";
            if (!c.known()) {
                out.append(Workflow.command(
                        "warning",
                        "perfab baseline update",
                        where + ": the baseline has no floors for this tier; seed it"));
            } else if (c.incoherent()) {
                out.append(Workflow.command(
                        "notice",
                        "perfab baseline update",
                        where + ": not taken: its ratios moved together by " + Numbers.signedPercent(c.offset())
                                + "; its anchor likely caught a tail"));
            }
            step.beyond(u.dropTolerance())
                    .forEach(l -> fell.add(Untrusted.plain(l.benchmark(), Untrusted.MAX_LENGTH)
                            + " fell " + Numbers.percent(l.drop()) + " (ratio " + Numbers.value(l.from()) + " to "
                            + Numbers.value(l.to()) + ") in " + where + ": check that it still does its work"));
        }
        Workflow.annotate(
                out,
                "warning",
                "perfab baseline update: fell far",
                fell,
                Workflow.PER_TYPE,
                more -> "and " + more + " more fell far; see the job summary");
        return out.toString();
    }

    /** Returns the floors lowered, and those that fell past the drop tolerance, for a step's outputs. */
    static Map<String, String> updateCounts(BaselineUpdate u) {
        Map<String, String> m = new TreeMap<>();
        m.put("lowered", Integer.toString(u.lowered()));
        m.put("fell-far", Integer.toString(u.fellFar()));
        return m;
    }

    // ---- shared -------------------------------------------------------------------------------

    private static UnaryOperator<String> escape(boolean md) {
        return md ? s -> Untrusted.markdown(s, Untrusted.MAX_LENGTH) : s -> Untrusted.plain(s, Untrusted.MAX_LENGTH);
    }

    private static UnaryOperator<String> prose(boolean md) {
        return md ? s -> Untrusted.markdown(s, Untrusted.MAX_PROSE) : s -> Untrusted.plain(s, Untrusted.MAX_PROSE);
    }

    private static String percent2(double pct) {
        return Double.isNaN(pct) ? Numbers.UNDEFINED : String.format(Locale.ROOT, "%.2f%%", pct);
    }

    /** Returns the benchmarks of {@code c} by status, for counts in step outputs. */
    static Map<String, String> counts(BaselineCheck c) {
        Map<String, String> m = new TreeMap<>();
        for (BaselineCheck.Status s : BaselineCheck.Status.values()) {
            m.put(s.name().toLowerCase(Locale.ROOT), Integer.toString(c.count(s)));
        }
        return m;
    }
}
