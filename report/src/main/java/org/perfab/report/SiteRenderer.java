package org.perfab.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.perfab.model.Baseline;
import org.perfab.model.Series;
import org.perfab.model.SeriesHistory;
import org.perfab.stats.SeriesRules;

/**
 * Renders the static site of a nightly series ({@code perfab series site}): an {@code index.html}
 * that holds the index of every key (its latest ratio, its noise, its movement in the latest run)
 * and the page of a key, and the readings of the keys in {@code data/keys-NNNNN.js}, {@value #CHUNK}
 * keys a file, which the page loads with a {@code <script>} element when a key is opened and draws
 * as an SVG chart there and then. So the index opens fast at ten thousand keys, the site needs no
 * server and no network (a browser forbids {@code fetch} of a {@code file://} page's neighbours, not
 * its scripts), and nothing of it comes from elsewhere.
 *
 * <p>Every name, key, processor, commit and run id is hostile: the data travel as JSON in which
 * every {@code < > &}, quote and line separator is a {@code \\u} escape, so no text closes the
 * script it is in, and the page's script puts text into the document only as text. A commit is
 * linked only when it is hexadecimal, a run only when its id is a number.
 */
public final class SiteRenderer {
    /** How many keys' readings one data file holds. */
    public static final int CHUNK = 100;
    /** The index page's name in the site. */
    public static final String INDEX = "index.html";

    private static final Pattern SHA = Pattern.compile("[0-9a-fA-F]{7,64}");
    private static final Pattern RUN_ID = Pattern.compile("[0-9]{1,20}");
    /** The longest name shown; the data keep every name whole, so that a key is found by it. */
    private static final int MAX_SHOWN = 400;

    private SiteRenderer() {}

    /**
     * Returns the files of the site of {@code history}, each by its path in the site ({@code /}
     * separated), the index first, then the data files in order.
     */
    public static Map<String, String> files(SeriesHistory history) {
        Runs runs = Runs.of(history);
        Map<String, String> files = new LinkedHashMap<>();
        files.put(INDEX, index(history, runs));
        int chunks = (history.keys().size() + CHUNK - 1) / CHUNK;
        List<String> data = IntStream.range(0, chunks)
                .parallel()
                .mapToObj(c -> chunk(history, runs, c))
                .toList();
        for (int c = 0; c < chunks; c++) {
            files.put(chunkPath(c), data.get(c));
        }
        return files;
    }

    /** Returns the path in the site of data file {@code c}. */
    public static String chunkPath(int c) {
        return String.format(Locale.ROOT, "data/keys-%05d.js", c);
    }

    /**
     * Returns the address of commit {@code sha} under {@code repoUrl} ({@code URL/commit/SHA});
     * empty without an address or when the commit is not 7 to 64 hexadecimal digits.
     */
    static Optional<String> commitLink(Optional<String> repoUrl, String sha) {
        return repoUrl.filter(u -> SHA.matcher(sha).matches()).map(u -> u + "/commit/" + sha);
    }

    /**
     * Returns the address of GitHub Actions run {@code run} under {@code repoUrl}
     * ({@code URL/actions/runs/ID}); empty without an address or when the id is not a number.
     */
    static Optional<String> runLink(Optional<String> repoUrl, String run) {
        return repoUrl.filter(u -> RUN_ID.matcher(run).matches()).map(u -> u + "/actions/runs/" + run);
    }

    /**
     * The runs of the series: each one's place, and the commit and processor of its first reading,
     * which its other readings share unless a data file says otherwise; and the processors of those
     * readings.
     */
    private record Runs(
            List<String> ids,
            Map<String, Integer> at,
            List<Series.Reading> first,
            List<String> cpus,
            Map<String, Integer> cpuAt) {
        static Runs of(SeriesHistory h) {
            Map<String, Integer> at = new HashMap<>();
            for (String r : h.runs()) {
                at.put(r, at.size());
            }
            Series.Reading[] first = new Series.Reading[h.runs().size()];
            int found = 0;
            for (int k = 0; k < h.keys().size() && found < first.length; k++) {
                for (Series.Reading r : h.keys().get(k).readings()) {
                    int i = at.get(r.run());
                    if (first[i] == null) {
                        first[i] = r;
                        found++;
                    }
                }
            }
            List<String> cpus = new ArrayList<>();
            Map<String, Integer> cpuAt = new HashMap<>();
            for (Series.Reading r : first) {
                if (cpuAt.putIfAbsent(r.cpu(), cpus.size()) == null) {
                    cpus.add(r.cpu());
                }
            }
            return new Runs(h.runs(), at, List.of(first), cpus, cpuAt);
        }
    }

    private static String index(SeriesHistory h, Runs runs) {
        Optional<String> latest = h.latestRun();
        JsonText d = new JsonText(64 * h.keys().size() + 4096);
        d.open('{').name("chunk").number(CHUNK);
        d.name("rules").string(h.rules().describe());
        d.name("stepFloor")
                .number(h.rules().stepFloor())
                .name("noiseTimes")
                .number(h.rules().noiseTimes());
        d.name("cpus").open('[');
        runs.cpus().forEach(d::string);
        d.close(']');
        d.name("runs").open('[');
        for (int i = 0; i < runs.ids().size(); i++) {
            Series.Reading r = runs.first().get(i);
            d.open('[')
                    .string(r.date().toString())
                    .string(r.run())
                    .string(r.commit())
                    .number(runs.cpuAt().get(r.cpu()))
                    .string(runLink(h.repoUrl(), r.run()).orElse(null))
                    .string(commitLink(h.repoUrl(), r.commit()).orElse(null))
                    .close(']');
        }
        d.close(']');
        d.name("keys").open('[');
        for (SeriesHistory.Key k : h.keys()) {
            Series.Reading last = k.latest();
            Optional<SeriesHistory.Movement> m = latest.flatMap(k::movementIn);
            boolean newCpu = !k.newCpus().isEmpty()
                    && k.newCpus().get(k.newCpus().size() - 1) == k.readings().size() - 1
                    && latest.map(last.run()::equals).orElse(false);
            String shown = shown(k.name());
            d.open('[')
                    .string(k.name())
                    .number(last.ratio())
                    .number(k.noise() * 100)
                    .string(m.map(x -> x.move().rule().id()).orElse(null))
                    .bool(m.map(SeriesHistory.Movement::isNew).orElse(false))
                    .number(m.map(x -> x.move().change()).orElse(Double.NaN))
                    .number(k.readings().size())
                    .number(runs.at().get(last.run()))
                    .bool(newCpu)
                    .string(shown.equals(k.name()) ? null : shown)
                    .close(']');
        }
        d.close(']');
        d.name("floors");
        floors(d, h.baseline());
        d.close('}');
        String title =
                "perfab series \u00b7 " + h.keys().size() + " key" + (h.keys().size() == 1 ? "" : "s");
        return Templates.render("site.html.ftl", Map.of("title", Untrusted.htmlProse(title), "data", d.toString()));
    }

    /** Writes the baseline's floors, tier by tier, or null without a baseline. */
    private static void floors(JsonText d, Optional<Baseline> baseline) {
        if (baseline.isEmpty()) {
            d.nothing();
            return;
        }
        Baseline b = baseline.get();
        d.open('{').name("anchor").string(b.anchor()).name("tiers").open('[');
        for (Baseline.Tier t : b.tiers()) {
            d.open('{')
                    .name("machine")
                    .string(t.key().machine())
                    .name("arch")
                    .string(t.key().arch())
                    .name("anchorValue")
                    .number(t.anchorValue())
                    .name("unit")
                    .string(t.unit())
                    .name("date")
                    .string(t.date().toString())
                    .name("cpus")
                    .open('[');
            t.cpus().forEach(d::string);
            d.close(']');
            Optional<Baseline.Floor> measured =
                    b.floors().stream().filter(f -> f.key().equals(t.key())).findFirst();
            d.name("spread");
            if (measured.isPresent()) {
                d.open('[')
                        .number(measured.get().p50())
                        .number(measured.get().p95())
                        .close(']');
            } else {
                d.nothing();
            }
            d.name("entries").open('[');
            for (Baseline.Entry e : b.entries()) {
                if (e.key().equals(t.key())) {
                    d.open('[')
                            .string(e.benchmark())
                            .number(e.ratio())
                            .number(e.value())
                            .string(e.unit())
                            .number(e.seen())
                            .string(e.setBy())
                            .close(']');
                }
            }
            d.close(']').close('}');
        }
        d.close(']').close('}');
    }

    /**
     * Returns data file {@code c}: a call of {@code perfabSite.load(c, keys)}, each key
     * {@code [runs, ratios, movements, newCpus, cpus, commits, rebasings]}: its readings' run places
     * and ratios, its movements {@code [reading, rule, new, ratio, reference, change, limit, first
     * reference, last reference]}, the places of its readings on a new processor, the readings whose
     * processor ({@code [reading, model]}) or commit ({@code [reading, sha, link]}) is not their
     * run's, and its re-basings ({@code [reading, from, to]}).
     */
    private static String chunk(SeriesHistory h, Runs runs, int c) {
        List<SeriesHistory.Key> keys =
                h.keys().subList(c * CHUNK, Math.min(h.keys().size(), (c + 1) * CHUNK));
        JsonText d =
                new JsonText(keys.stream().mapToInt(k -> k.readings().size()).sum() * 12 + 256);
        d.raw("perfabSite.load(").raw(Integer.toString(c)).raw(",");
        d.open('[');
        for (SeriesHistory.Key k : keys) {
            d.open('[').open('[');
            List<Series.Reading> rs = k.readings();
            int[] at = new int[rs.size()];
            for (int i = 0; i < at.length; i++) {
                at[i] = runs.at().get(rs.get(i).run());
                d.number(at[i]);
            }
            d.close(']').open('[');
            rs.forEach(r -> d.number(r.ratio()));
            d.close(']').open('[');
            for (SeriesHistory.Movement m : k.movements()) {
                SeriesRules.Move mv = m.move();
                List<Integer> refs = mv.references();
                d.open('[')
                        .number(m.reading())
                        .string(mv.rule().id())
                        .bool(m.isNew())
                        .number(mv.ratio())
                        .number(mv.reference())
                        .number(mv.change())
                        .number(mv.limit())
                        .number(refs.isEmpty() ? m.reading() : refs.get(0))
                        .number(refs.isEmpty() ? m.reading() : refs.get(refs.size() - 1))
                        .close(']');
            }
            d.close(']').open('[');
            k.newCpus().forEach(d::number);
            d.close(']').open('[');
            for (int i = 0; i < rs.size(); i++) {
                Series.Reading r = rs.get(i);
                if (!r.cpu().equals(runs.first().get(at[i]).cpu())) {
                    d.open('[').number(i).string(r.cpu()).close(']');
                }
            }
            d.close(']').open('[');
            for (int i = 0; i < rs.size(); i++) {
                Series.Reading r = rs.get(i);
                if (!r.commit().equals(runs.first().get(at[i]).commit())) {
                    d.open('[')
                            .number(i)
                            .string(r.commit())
                            .string(commitLink(h.repoUrl(), r.commit()).orElse(null))
                            .close(']');
                }
            }
            d.close(']').open('[');
            for (SeriesHistory.Rebasing r : k.rebasings()) {
                d.open('[')
                        .number(r.reading())
                        .string(r.from())
                        .string(rs.get(r.reading()).base())
                        .close(']');
            }
            d.close(']').close(']');
        }
        d.close(']');
        return d.raw(");\n").toString();
    }

    /** Returns {@code name} as the page shows it: its spaces made visible, control characters as {@code ?}, bounded. */
    private static String shown(String name) {
        return Untrusted.plain(Untrusted.spaces(name), MAX_SHOWN);
    }

    /**
     * JSON written straight into a page's script: commas placed by the writer, and every character
     * that could end a script element, start markup or break a line in a script escaped.
     */
    static final class JsonText {
        private final StringBuilder out;
        private boolean first = true;

        JsonText(int capacity) {
            out = new StringBuilder(capacity);
        }

        JsonText raw(String s) {
            out.append(s);
            return this;
        }

        JsonText open(char c) {
            comma();
            out.append(c);
            first = true;
            return this;
        }

        JsonText close(char c) {
            out.append(c);
            first = false;
            return this;
        }

        JsonText name(String name) {
            comma();
            quote(name);
            out.append(':');
            first = true;
            return this;
        }

        JsonText nothing() {
            comma();
            out.append("null");
            return this;
        }

        JsonText bool(boolean b) {
            comma();
            out.append(b ? '1' : '0');
            return this;
        }

        /** Appends {@code v} in its shortest form; null when it is not finite. */
        JsonText number(double v) {
            comma();
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                out.append("null");
            } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                out.append((long) v);
            } else {
                out.append(v);
            }
            return this;
        }

        JsonText number(int v) {
            comma();
            out.append(v);
            return this;
        }

        /** Appends {@code s} as a JSON string; null when it is null. */
        JsonText string(String s) {
            comma();
            if (s == null) {
                out.append("null");
            } else {
                quote(s);
            }
            return this;
        }

        private void comma() {
            if (!first) {
                out.append(',');
            }
            first = false;
        }

        private void quote(String s) {
            out.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    out.append('\\').append(c);
                } else if (c < 0x20
                        || c == '<'
                        || c == '>'
                        || c == '&'
                        || c == '\''
                        || c == 0x2028
                        || c == 0x2029
                        || c == 0x7f
                        || Character.isSurrogate(c) && !pair(s, i)) {
                    out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                } else {
                    out.append(c);
                }
            }
            out.append('"');
        }

        /** Returns whether the surrogate at {@code i} is half of a well-formed pair. */
        private static boolean pair(String s, int i) {
            char c = s.charAt(i);
            return Character.isHighSurrogate(c)
                    ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                    : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
        }

        @Override
        public String toString() {
            return out.toString();
        }
    }
}
