package org.perfab.report;

import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.perfab.model.CellComparison;
import org.perfab.model.RunResults;
import org.perfab.stats.Comparison;
import org.perfab.stats.Thresholds;
import org.perfab.stats.Verdict;

/**
 * Renders an A/B as JUnit XML, the report CI systems show as tests (GitHub's test-report actions,
 * GitLab's merge-request test summary, Jenkins' test results): one {@code <testsuite>} for the run,
 * a {@code <testcase>} per cell, named by the cell ({@code NAME:METRIC}) under the workload's name
 * as its class.
 *
 * <ul>
 *   <li>a regression, or any verdict the run fails on ({@code --fail-on}), is a {@code <failure>}:
 *       every reader shows it red, with its message;
 *   <li>inconclusive, too noisy, no data and profile cells are {@code <skipped>} with the reason: a
 *       reader shows them apart from the passes, since none of them is a pass;
 *   <li>unchanged, improvement and small (worse and real, under the bar) pass; a small slowdown
 *       says so in the case's {@code <system-out>};
 *   <li>a row that measures another cell again takes that cell's verdict: it is skipped, naming
 *       it, so one slowdown is never two failures;
 *   <li>a run that compares nothing has one case, {@code perfab}, in {@code <error>}.
 * </ul>
 *
 * <p>Every name and message comes from the code under test: each is escaped for XML
 * ({@link Untrusted#xml}); control characters and characters XML cannot carry become {@code ?}.
 * Times are 0 (the cases are cells, not tests that ran), and the suite's timestamp is the run's
 * start, so the rendering depends on the run alone.
 */
final class JunitRenderer implements Renderer<Report> {
    /** One case, every field escaped: its name, its outcome, the verdict it is of, and what it says. */
    private record Case(String name, Shown.Junit outcome, String type, String message, String detail) {}

    @Override
    public String render(Report report) {
        String suite = xml(report.name());
        List<Case> cases = new ArrayList<>();
        Optional<String> none = report.noComparison();
        for (CellComparison r : report.table().rows()) {
            cases.add(of(r, report));
        }
        long failures =
                cases.stream().filter(c -> c.outcome() == Shown.Junit.FAILED).count();
        long skipped =
                cases.stream().filter(c -> c.outcome() == Shown.Junit.SKIPPED).count();
        int errors = none.isPresent() ? 1 : 0;
        int tests = cases.size() + errors;
        String counts = " tests=\"" + tests + "\" failures=\"" + failures + "\" errors=\"" + errors + "\" skipped=\""
                + skipped + "\" time=\"0\"";
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.append("<testsuites name=\"perfab\"").append(counts).append(">\n");
        out.append("  <testsuite name=\"").append(suite).append('"').append(counts);
        report.run()
                .map(RunResults::startedAt)
                .ifPresent(at -> out.append(" timestamp=\"")
                        .append(at.truncatedTo(ChronoUnit.SECONDS).toString().replaceFirst("Z$", ""))
                        .append('"'));
        out.append(">\n    <properties>\n");
        property(out, "base", report.table().baseLabel());
        property(out, "head", report.table().headLabel());
        property(out, "rules", Words.rules(report));
        property(out, "gate", Warnings.gate(report));
        out.append("    </properties>\n");
        none.ifPresent(n -> out.append("    <testcase name=\"perfab\" classname=\"")
                .append(suite)
                .append("\" time=\"0\">\n      <error message=\"")
                .append(xml(n))
                .append("\" type=\"no-comparison\"/>\n")
                .append("    </testcase>\n"));
        for (Case c : cases) {
            out.append("    <testcase name=\"")
                    .append(c.name())
                    .append("\" classname=\"")
                    .append(suite)
                    .append("\" time=\"0\"");
            switch (c.outcome()) {
                case PASSED -> {
                    if (c.detail().isEmpty()) {
                        out.append("/>\n");
                        continue;
                    }
                    out.append(">\n      <system-out>").append(c.detail()).append("</system-out>\n");
                }
                case FAILED ->
                    out.append(">\n      <failure message=\"")
                            .append(c.message())
                            .append("\" type=\"")
                            .append(c.type())
                            .append("\">")
                            .append(c.detail())
                            .append("</failure>\n");
                case SKIPPED ->
                    out.append(">\n      <skipped message=\"")
                            .append(c.message())
                            .append("\"/>\n");
            }
            out.append("    </testcase>\n");
        }
        out.append("  </testsuite>\n</testsuites>\n");
        return out.toString();
    }

    private static Case of(CellComparison r, Report report) {
        Comparison c = r.comparison();
        Verdict v = c.verdict();
        String name = Untrusted.xml(Untrusted.spaces(r.cell().name()), Untrusted.MAX_LENGTH) + ":"
                + Untrusted.xml(Untrusted.spaces(r.cell().metric()), Untrusted.MAX_LENGTH);
        Thresholds t = report.table().thresholds();
        String figures = Numbers.signedPercent(c.pctChange()) + " " + Numbers.interval(c.ciLow(), c.ciHigh()) + ", p "
                + Numbers.pValue(c.pValue());
        if (r.sameAs().isPresent()) {
            return new Case(
                    name,
                    Shown.Junit.SKIPPED,
                    v.id(),
                    xml("the same measurement as its " + r.sameAs().get().metric() + ", whose verdict ("
                            + Words.label(v) + ") it takes"),
                    "");
        }
        String detail = xml("base "
                + side(c.base().n(), c.base().mean(), c.base().cv(), r.cell().unit()) + "; head "
                + side(c.head().n(), c.head().mean(), c.head().cv(), r.cell().unit()) + "; change " + figures
                + String.join("", Notes.of(r, t).stream().map(n -> "; " + n).toList()));
        Shown.Junit outcome =
                report.failOn().contains(v) ? Shown.Junit.FAILED : Shown.of(v).junit();
        if (outcome == Shown.Junit.FAILED) {
            return new Case(name, outcome, v.id(), xml(v.id() + ": " + figures), detail);
        }
        return switch (v) {
            case INCONCLUSIVE ->
                new Case(
                        name,
                        outcome,
                        v.id(),
                        xml("inconclusive: worse by " + figures + ", past " + Numbers.percent(t.inconclusive())
                                + " and not confirmed by the test; not a pass"),
                        "");
            case NOISY -> {
                double detectable = r.detectable();
                yield new Case(
                        name,
                        outcome,
                        v.id(),
                        xml("too noisy to tell: "
                                + (Double.isNaN(detectable)
                                        ? "the trials disagree"
                                        : "a slowdown of up to " + Numbers.percent(detectable) + " could go unseen")
                                + " (CV " + Numbers.percent(c.base().cv()) + " / "
                                + Numbers.percent(c.head().cv()) + "); not a pass"),
                        "");
            }
            case NO_DATA ->
                new Case(
                        name,
                        outcome,
                        v.id(),
                        xml("no data: a side has fewer than 2 measurements ("
                                + c.base().n() + " / " + c.head().n() + ")"),
                        "");
            case PROFILE ->
                new Case(name, outcome, v.id(), xml("profile: shown, never classified (" + figures + ")"), "");
            case SMALL ->
                new Case(
                        name,
                        outcome,
                        v.id(),
                        "",
                        xml("small: worse by " + figures + ", real and under the " + Numbers.percent(t.minEffect())
                                        + " bar")
                                + "\n" + detail);
            case REGRESSION, IMPROVEMENT, UNCHANGED -> new Case(name, outcome, v.id(), "", "");
        };
    }

    private static String side(int n, double mean, double cv, String unit) {
        return "n " + n + ", mean " + Numbers.value(mean) + " " + unit + " ±" + Numbers.percent(cv);
    }

    private static void property(StringBuilder out, String name, String value) {
        out.append("      <property name=\"")
                .append(name)
                .append("\" value=\"")
                .append(xml(value))
                .append("\"/>\n");
    }

    private static String xml(String s) {
        return Untrusted.xml(s, Untrusted.MAX_PROSE);
    }
}
