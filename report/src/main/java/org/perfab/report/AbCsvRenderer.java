package org.perfab.report;

import java.util.stream.Collectors;
import org.perfab.model.CellComparison;
import org.perfab.model.CellId;
import org.perfab.stats.Caveat;
import org.perfab.stats.Comparison;

/**
 * Renders an A/B table as comma-separated values, a line per cell, for a spreadsheet: each side's
 * count, mean and spread in the cell's own unit, the change and its 95% interval in percent, p,
 * the smallest slowdown the rules would have caught, and the verdict.
 */
final class AbCsvRenderer implements Renderer<Report> {
    @Override
    public String render(Report report) {
        Csv out = new Csv(
                "cell",
                "metric",
                "unit",
                "direction",
                "verdict",
                "base n",
                "base mean",
                "base cv %",
                "head n",
                "head mean",
                "head cv %",
                "change %",
                "ci low %",
                "ci high %",
                "p",
                "detects %",
                "caveats",
                "same as");
        for (CellComparison r : report.table().rows()) {
            Comparison c = r.comparison();
            out.line(
                    r.cell().name(),
                    r.cell().metric(),
                    r.cell().unit(),
                    r.cell().direction().id(),
                    c.verdict().id(),
                    Integer.toString(c.base().n()),
                    Csv.number(c.base().mean()),
                    Csv.number(c.base().cv()),
                    Integer.toString(c.head().n()),
                    Csv.number(c.head().mean()),
                    Csv.number(c.head().cv()),
                    Csv.number(c.pctChange()),
                    Csv.number(c.ciLow()),
                    Csv.number(c.ciHigh()),
                    Csv.number(c.pValue()),
                    Csv.number(r.detectable()),
                    c.caveats().stream().map(Caveat::id).collect(Collectors.joining(" ")),
                    r.sameAs().map(CellId::metric).orElse(""));
        }
        return out.text();
    }
}
