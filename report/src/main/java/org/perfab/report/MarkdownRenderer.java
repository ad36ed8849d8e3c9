package org.perfab.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.perfab.model.CellComparison;
import org.perfab.model.CellId;
import org.perfab.model.ComparisonTable;
import org.perfab.model.Ids;
import org.perfab.model.RunResults;
import org.perfab.model.Sharding;
import org.perfab.model.Units;
import org.perfab.stats.Comparison;
import org.perfab.stats.Summary;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * Renders the pull-request comment through a Freemarker template. The template sees only text that
 * this class has already formatted and escaped ({@link Untrusted#markdown}), so nothing it prints
 * can carry markup, a mention or a reference from a cell or branch name.
 *
 * <p>The comment starts with a hidden marker naming the workload ({@link #marker}), so a bot can
 * update its own comment instead of adding one per push. When it would pass {@value #MAX_LENGTH} characters
 * (GitHub's limit less room for the bot's links), rows are left out, unchanged ones first, and the
 * comment says how many and where the full table is.
 */
final class MarkdownRenderer implements Renderer<Report> {
    /** The verdict of a time row counted instead: no verdict's mark, since it claims nothing. */
    static final String COUNTED_INSTEAD = "\u21AA\uFE0F counted instead";

    /** GitHub's limit on the body of a comment, in characters. */
    static final int GITHUB_LIMIT = 65_536;
    /**
     * The longest comment, in characters: GitHub's limit less room for what the bot adds to it
     * (links to the run, the report and both commits; the line saying a new run is measuring).
     */
    static final int MAX_LENGTH = GITHUB_LIMIT - 1_024;
    /** Unchanged rows past this many fold into a {@code <details>} block. */
    static final int FOLD_UNCHANGED = 8;

    /** The most warnings a comment shows; the rest are counted. */
    static final int MAX_WARNINGS = 15;
    /** The most per-cell notes a comment shows; the rest are counted. */
    static final int MAX_NOTES = 30;

    /**
     * The order in which rows are left out of a comment that is too long. Regressions are never
     * left out as a class: as many as fit are shown, and the rest counted.
     */
    private static final List<Verdict> OMIT_ORDER = List.of(
            Verdict.UNCHANGED,
            Verdict.PROFILE,
            Verdict.NO_DATA,
            Verdict.NOISY,
            Verdict.IMPROVEMENT,
            Verdict.SMALL,
            Verdict.INCONCLUSIVE);

    /** One row as the template prints it: every field formatted and escaped. */
    public record Row(
            String cell,
            String metric,
            String base,
            String head,
            String change,
            String p,
            String verdict,
            String builds,
            String trials,
            String shard) {}

    /** Rows folded under a title, below the table: a verdict the table need not show open. */
    public record Fold(String title, List<Row> rows) {}

    /** Everything the template prints. */
    public record View(
            String marker,
            String headline,
            String context,
            String harness,
            List<Row> rows,
            List<Fold> folds,
            String zeros,
            List<String> warnings,
            List<String> notes,
            String omitted,
            String legend,
            boolean byBuilds,
            boolean sharded) {}

    /**
     * What a rendering may show: the verdicts it leaves out, and at most how many rows, warnings and
     * notes.
     */
    private record Budget(Set<Verdict> omit, int rows, int warnings, int notes) {
        Budget omitting(Verdict v) {
            Set<Verdict> more = EnumSet.noneOf(Verdict.class);
            more.addAll(omit);
            more.add(v);
            return new Budget(more, rows, warnings, notes);
        }

        Budget withRows(int n) {
            return new Budget(omit, n, warnings, notes);
        }
    }

    /**
     * Renders the comment within GitHub's limit: when the whole does not fit, rows are left out a
     * verdict at a time (unchanged first), then notes and warnings beyond the first few, then as
     * many regressions as fit are kept; whatever is left out is counted in the comment.
     */

    /** The longest workload name a marker keeps as it is. */
    private static final int MARKER_NAME = 60;

    /**
     * Returns the marker of a workload's comment: its name in letters, digits, {@code .}, {@code _}
     * and {@code -} only, so that it needs no escaping anywhere (Markdown, an HTML comment, a shell
     * or jq comparing it), followed, when the name had anything else or was longer, by the start
     * of the name's SHA-256, so that two names never share one. {@code my_bench} stays itself;
     * {@code my bench} is {@code my-bench-} and eight hex digits.
     */
    static String marker(String name) {
        StringBuilder kept = new StringBuilder();
        name.codePoints().forEach(cp -> {
            boolean plain = cp < 128 && (Character.isLetterOrDigit(cp) || cp == '.' || cp == '_' || cp == '-');
            char c = plain ? (char) cp : '-';
            if (!(c == '-' && kept.length() > 0 && kept.charAt(kept.length() - 1) == '-')) {
                kept.append(c);
            }
        });
        String shown = kept.length() > MARKER_NAME ? kept.substring(0, MARKER_NAME) : kept.toString();
        if (shown.equals(name) && !name.isEmpty()) {
            return name;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return (shown.isEmpty() || shown.endsWith("-") ? shown : shown + "-")
                    + HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java", e);
        }
    }

    @Override
    public String render(Report report) {
        Prepared prepared = Prepared.of(report);
        Budget budget = new Budget(EnumSet.noneOf(Verdict.class), Integer.MAX_VALUE, MAX_WARNINGS, MAX_NOTES);
        String text = render(report, prepared, budget);
        for (Verdict v : OMIT_ORDER) {
            if (text.length() <= MAX_LENGTH) {
                return text;
            }
            budget = budget.omitting(v);
            text = render(report, prepared, budget);
        }
        if (text.length() <= MAX_LENGTH) {
            return text;
        }
        budget = new Budget(budget.omit(), Integer.MAX_VALUE, 3, 0);
        text = render(report, prepared, budget);
        if (text.length() <= MAX_LENGTH) {
            return text;
        }
        // The regressions alone are too many: find how many fit.
        int fits = 0;
        int tooMany = report.table().counts().get(Verdict.REGRESSION);
        while (tooMany - fits > 1) {
            int mid = (fits + tooMany) >>> 1;
            if (render(report, prepared, budget.withRows(mid)).length() <= MAX_LENGTH) {
                fits = mid;
            } else {
                tooMany = mid;
            }
        }
        return render(report, prepared, budget.withRows(fits));
    }

    /**
     * What every attempt at fitting the limit shares, made once: each row as shown, its notes, and
     * the warnings (a table of 10,000 cells takes several attempts).
     */
    private record Prepared(
            List<Row> rows,
            List<List<String>> notes,
            String zeros,
            List<String> warnings,
            String headline,
            String context,
            String harness,
            String legend) {
        static Prepared of(Report report) {
            ComparisonTable table = report.table();
            List<Row> rows = new ArrayList<>(table.rows().size());
            List<List<String>> notes = new ArrayList<>(table.rows().size());
            Map<CellId, String> shards = ShardWords.shardOfCells(report);
            UnaryOperator<String> names = ShortNames.of(table);
            for (CellComparison r : table.rows()) {
                rows.add(row(
                        r,
                        names,
                        table.thresholds(),
                        shards.getOrDefault(r.cell().id(), "")));
                notes.add(Notes.of(r, table.thresholds()).stream()
                        .map(n -> Untrusted.markdown(n, Untrusted.MAX_PROSE))
                        .toList());
            }
            String zeros = Zeros.line(table.rows(), n -> Untrusted.markdown(n));
            return new Prepared(
                    rows,
                    notes,
                    zeros,
                    Warnings.of(report),
                    MarkdownRenderer.headline(report),
                    MarkdownRenderer.context(report),
                    MarkdownRenderer.harness(report),
                    MarkdownRenderer.legend(report));
        }
    }

    private static String render(Report report, Prepared prepared, Budget budget) {
        ComparisonTable table = report.table();
        List<Row> rows = new ArrayList<>();
        List<Row> unchanged = new ArrayList<>();
        List<Row> countedInstead = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int left = 0;
        int shown = 0;
        int notesLeft = 0;
        long unchangedCount = table.rows().stream()
                .filter(r -> r.comparison().verdict() == Verdict.UNCHANGED && !r.allZero())
                .count();
        boolean fold = unchangedCount > FOLD_UNCHANGED;
        for (int i = 0; i < table.rows().size(); i++) {
            CellComparison r = table.rows().get(i);
            Verdict v = r.comparison().verdict();
            if (r.allZero()) {
                continue; // said in one line
            }
            if (budget.omit().contains(v) || shown >= budget.rows()) {
                left++;
                continue;
            }
            shown++;
            Row row = prepared.rows().get(i);
            if (fold && v == Verdict.UNCHANGED) {
                unchanged.add(row);
            } else if (r.countedInstead()) {
                countedInstead.add(row);
            } else {
                rows.add(row);
            }
            for (String note : prepared.notes().get(i)) {
                if (notes.size() < budget.notes()) {
                    notes.add(row.cell() + " " + row.metric() + ": " + note);
                } else {
                    notesLeft++;
                }
            }
        }
        if (notesLeft > 0) {
            notes.add(notesLeft + " more note" + (notesLeft == 1 ? " is" : "s are") + " left out; see report.html.");
        }
        String omitted = left == 0
                ? ""
                : left + " row" + (left == 1 ? " is" : "s are") + " left out to stay within GitHub's comment"
                        + " limit; the full table is in the run's artifact (results.json, report.html).";
        List<String> all = prepared.warnings();
        List<String> warnings = new ArrayList<>();
        for (String w : all.subList(0, Math.min(all.size(), budget.warnings()))) {
            warnings.add(Untrusted.markdown(w, Untrusted.MAX_PROSE));
        }
        if (all.size() > budget.warnings()) {
            int more = all.size() - budget.warnings();
            warnings.add(more + " more warning" + (more == 1 ? " is" : "s are") + " left out; every warning is in"
                    + " the run's results.json.");
        }
        View view = new View(
                marker(report.name()),
                prepared.headline(),
                prepared.context(),
                prepared.harness(),
                rows,
                folds(countedInstead, unchanged),
                prepared.zeros(),
                warnings,
                notes,
                omitted,
                prepared.legend(),
                table.rows().stream().anyMatch(CellComparison::byBuilds),
                report.run().flatMap(RunResults::sharding).map(Sharding::merged).orElse(false));
        return Templates.render("comment.md.ftl", Map.of("view", view));
    }

    /**
     * Returns the folds below the table: the time rows of benchmarks counted instead (their counts'
     * rows are their verdicts, and they claim nothing), then the unchanged rows; a fold of no rows is
     * left out.
     */
    private static List<Fold> folds(List<Row> countedInstead, List<Row> unchanged) {
        List<Fold> folds = new ArrayList<>();
        if (!countedInstead.isEmpty()) {
            folds.add(new Fold(
                    countedInstead.size() + " timed too noisily to tell, counted instead: each benchmark's count is its"
                            + " verdict",
                    countedInstead));
        }
        if (!unchanged.isEmpty()) {
            folds.add(new Fold(foldedTitle(unchanged), unchanged));
        }
        return folds;
    }

    /**
     * Returns the title of the folded unchanged rows: their count, and, where some benchmark has more
     * than one of them (its time and its throughput, its allocations), how many benchmarks they are,
     * so that the number reads against the headline's, which counts benchmarks.
     */
    private static String foldedTitle(List<Row> unchanged) {
        long benchmarks = unchanged.stream().map(Row::cell).distinct().count();
        return benchmarks == unchanged.size()
                ? unchanged.size() + " unchanged"
                : unchanged.size() + " unchanged rows, of " + benchmarks + " benchmark" + (benchmarks == 1 ? "" : "s");
    }

    private static Row row(CellComparison r, UnaryOperator<String> names, Thresholds thresholds, String shard) {
        Comparison c = r.comparison();
        // Both sides in one unit scaled for people, as the text table: 37.42 ms/op, not 37423436 ns/op.
        Units.Display d =
                Numbers.display(r.cell().unit(), c.base().mean(), c.head().mean());
        return new Row(
                Untrusted.markdown(names.apply(r.cell().name())),
                Untrusted.markdown(r.cell().metric()),
                side(c.base(), c.base().mean(), d),
                side(c.head(), c.head().mean(), d),
                change(c),
                Numbers.pValue(c.pValue()).replace("<", "&lt;"),
                verdict(r, thresholds),
                r.byBuilds() ? "±" + Numbers.percent(r.buildSpread()) : "",
                r.trialLevel()
                        .map(t -> Numbers.signedPercent(t.pctChange()) + ", p "
                                + Numbers.pValue(t.pValue()).replace("<", "&lt;"))
                        .orElse(""),
                shard);
    }

    /**
     * Returns the comment's first line: how many benchmarks have each verdict (a benchmark with a
     * time and a throughput is one), never counting one too noisy to tell as unchanged; a run that
     * goes on says so first.
     */
    private static String headline(Report report) {
        Optional<String> none = report.noComparison();
        if (none.isPresent()) {
            return "\u274C " + none.get();
        }
        ComparisonTable table = report.table();
        Map<Verdict, Integer> n = table.benchmarks();
        List<String> parts = new ArrayList<>();
        for (Verdict v : Verdict.values()) {
            int count = n.get(v);
            if (Words.ALWAYS_COUNTED.contains(v) || count > 0) {
                String mark = v == Verdict.PROFILE || v == Verdict.NO_DATA ? "" : Words.mark(v) + " ";
                parts.add(mark + count + " " + (v == Verdict.NO_DATA ? "without data" : Words.word(v, count)));
            }
        }
        int benchmarks = n.values().stream().mapToInt(Integer::intValue).sum();
        int cells = table.counts().values().stream().mapToInt(Integer::intValue).sum();
        return Words.partial(report).map(p -> "\u23F3 " + p + " · ").orElse("")
                + String.join(" · ", parts)
                + (benchmarks == cells
                        ? ""
                        : " (" + benchmarks + (benchmarks == 1 ? " benchmark, " : " benchmarks, ") + cells + " cells)")
                + ShardWords.lacking(report).map(l -> " · \u26A0\uFE0F " + l).orElse("");
    }

    private static String context(Report report) {
        if (report.run().isEmpty()) {
            return "Baseline " + code(report.table().baseLabel()) + " · candidate "
                    + code(report.table().headLabel());
        }
        RunResults run = report.run().get();
        RunResults.Provenance p = run.provenance();
        String base = code(abbreviate(p.mergeBase())) + " (merge-base of "
                + code(p.base().typed()) + ")";
        String head = code(abbreviate(p.head().commit())) + " (" + code(p.head().typed()) + ")";
        StringBuilder s = new StringBuilder();
        s.append("Baseline ").append(base).append(" · candidate ").append(head);
        s.append(" · ").append(run.settings().trials()).append(" trials per side");
        if (run.settings().builds() > 1) {
            s.append(" over ").append(run.settings().builds()).append(" builds");
        }
        report.countedBy().ifPresent(by -> s.append(", counted by ").append(by).append(" (not timed)"));
        if (run.sharding().map(Sharding::merged).orElse(false)) {
            // Each shard ran on a runner of its own: the shards say which.
            s.append(" · ")
                    .append(Untrusted.markdown(ShardWords.measuredBy(report).orElseThrow(), Untrusted.MAX_PROSE));
            return s.toString();
        }
        s.append(" · ")
                .append(Untrusted.markdown(run.machine().cpu(), Untrusted.MAX_PROSE))
                .append(", ")
                .append(run.machine().cores())
                .append(run.machine().cores() == 1 ? " core" : " cores");
        if (!run.machine().runner().isEmpty()) {
            s.append(" (")
                    .append(Untrusted.markdown(run.machine().runner(), Untrusted.MAX_PROSE))
                    .append(')');
        }
        ShardWords.measuredBy(report).ifPresent(by -> s.append(" · ").append(by));
        return s.toString();
    }

    /**
     * Returns the line that says whose harness ran: with the head's, which of its files the base
     * ran in place of its own, so a reader knows when the harness changed with the code.
     */
    private static String harness(Report report) {
        String runner = Words.runner(report.table()).orElse("");
        String files = harnessFiles(report);
        return files.isEmpty() || runner.isEmpty() ? files + runner : files + "\n\n" + runner;
    }

    /** Returns the line of the harness files; empty when the run had none of the head's. */
    private static String harnessFiles(Report report) {
        if (report.run().isEmpty()
                || report.run().get().settings().harnessFiles().isEmpty()) {
            return "";
        }
        List<RunResults.HarnessFile> files = report.run().get().settings().harnessFiles();
        List<String> copied = new ArrayList<>();
        for (RunResults.HarnessFile f : files) {
            if (f.state() != RunResults.HarnessFile.State.SAME) {
                copied.add(code(f.path()) + " (" + f.state().id() + ")");
            }
        }
        int same = files.size() - copied.size();
        if (copied.isEmpty()) {
            return "Harness: the head's, on both sides; its " + count(files.size(), "file is", "files are")
                    + " the same in the baseline.";
        }
        int shown = Math.min(copied.size(), Warnings.NAMED);
        return "Harness: the head's, on both sides; the baseline ran the head's "
                + String.join(", ", copied.subList(0, shown))
                + (copied.size() > shown ? " and " + (copied.size() - shown) + " more" : "")
                + (same == 0 ? "" : "; " + count(same, "other file is", "other files are") + " the same") + ".";
    }

    private static String legend(Report report) {
        var t = report.table().thresholds();
        String p = t.adaptive().isPresent()
                ? "p under its look's level (" + Numbers.value(t.alpha()) + " over all the looks)"
                : "p < " + Numbers.value(t.alpha());
        String nominal = "p < " + Numbers.value(t.alpha());
        return Words.mark(Verdict.REGRESSION) + " regression: worse, " + p + " and at least "
                + Numbers.percent(t.minEffect()) + ". " + Words.mark(Verdict.INCONCLUSIVE) + " inconclusive: worse by "
                + Numbers.percent(t.inconclusive()) + " or more, or past the bar because of slow trials, but not"
                + " confirmed by the test; not a pass. "
                + Words.mark(Verdict.SMALL) + " small: worse and " + nominal + ", under "
                + Numbers.percent(t.minEffect())
                + ": real, and under the bar. " + Words.mark(Verdict.IMPROVEMENT) + " improvement: better, " + p
                + " and at least " + Numbers.percent(t.minEffect()) + ". " + Words.mark(Verdict.NOISY)
                + " too noisy to tell:"
                + " a slowdown past " + Numbers.percent(t.inconclusive()) + " could go unseen, or the trials disagree"
                + " (two groups, significant alone but not among many); not a pass. " + Words.mark(Verdict.UNCHANGED)
                + " no change &ge; X: the row's 95% interval rules out a slowdown of X, which would have been reported"
                + " 4 times in 5; a smaller one can hide in the noise. "
                + Words.together(report)
                        .map(s -> Character.toUpperCase(s.charAt(0)) + s.substring(1) + ". ")
                        .orElse("")
                + t.adaptive()
                        .map(s -> "Adaptive trials: " + Words.looks(t, s) + ". ")
                        .orElse("")
                + "± is the coefficient of variation across trials. " + Words.test(report.table()) + " "
                + (report.table().rows().stream().anyMatch(CellComparison::byBuilds) ? Words.BUILDS_DECIDE + " " : "")
                + Warnings.gate(report);
    }

    /**
     * Returns the verdict of a row with its mark; an unchanged row says what it can rule out, "no
     * change &ge; 4.2%", since a smaller slowdown may hide in its noise; a row too noisy to tell says
     * what it could miss; a row that measures another again says whose verdict it takes.
     */
    private static String verdict(CellComparison r, Thresholds thresholds) {
        Comparison c = r.comparison();
        if (r.countedInstead()) {
            return COUNTED_INSTEAD;
        }
        String as =
                r.sameAs().map(p -> ", as " + Untrusted.markdown(p.metric())).orElse("");
        double detectable = r.detectable();
        if (c.verdict() == Verdict.NOISY
                && !Double.isNaN(detectable)
                && detectable > thresholds.inconclusive()
                && Words.label(c).equals(Words.label(Verdict.NOISY))) {
            return Words.mark(Verdict.NOISY) + " too noisy: could miss " + Numbers.percent(detectable) + as;
        }
        if (c.verdict() != Verdict.UNCHANGED
                || Double.isNaN(detectable)
                || r.sameAs().isPresent()) {
            return Words.mark(c.verdict()) + " " + Words.label(c) + as;
        }
        return Words.mark(Verdict.UNCHANGED) + " no change &ge; " + Numbers.percent(detectable);
    }

    private static String abbreviate(String id) {
        return Ids.shortId(id);
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static String code(String untrusted) {
        return "`" + Untrusted.plain(untrusted, 200).replace("`", "'") + "`";
    }

    private static String side(Summary s, double centre, Units.Display d) {
        if (s.n() == 0) {
            return Numbers.UNDEFINED;
        }
        String mean = Numbers.shown(centre, d, Untrusted::markdown);
        return Double.isNaN(s.cv()) ? mean : mean + " ±" + Numbers.percent(s.cv());
    }

    private static String change(Comparison c) {
        String pct = Numbers.signedPercent(c.pctChange());
        String ci = Numbers.interval(c.ciLow(), c.ciHigh());
        return ci.equals(Numbers.UNDEFINED) ? pct : pct + " " + ci;
    }
}
