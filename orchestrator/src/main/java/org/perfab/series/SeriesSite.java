package org.perfab.series;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import org.perfab.demo.SyntheticSeries;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.model.Baseline;
import org.perfab.model.Series;
import org.perfab.model.SeriesFile;
import org.perfab.model.SeriesHistory;
import org.perfab.report.SiteRenderer;
import org.perfab.stats.Sample;
import org.perfab.stats.SeriesRules;

/**
 * The static site of a nightly series ({@code perfab series site}): reads the series and the
 * baseline, finds every reading's movement as {@code perfab series check} of its run would, and
 * writes the pages {@link SiteRenderer} makes of them into a folder.
 */
public final class SeriesSite {
    private SeriesSite() {
    }

    /**
     * What to make a site of.
     *
     * @param series the series file
     * @param baseline a ratchet baseline to show beside it; empty for none
     * @param out the folder to write the site into (created; the site's files in it replaced)
     * @param rules the rules the movements are found with
     * @param repoUrl the repository's web address for links to commits and runs; empty for none
     */
    public record Request(Path series, Optional<Path> baseline, Path out, SeriesRules.Options rules,
            Optional<String> repoUrl) {
        public Request {
            Objects.requireNonNull(series, "series");
            Objects.requireNonNull(baseline, "baseline");
            Objects.requireNonNull(out, "out");
            Objects.requireNonNull(rules, "rules");
            Objects.requireNonNull(repoUrl, "repoUrl");
        }
    }

    /**
     * What was written.
     *
     * @param index the site's index page
     * @param keys how many keys it shows
     * @param runs how many runs
     * @param files how many files it wrote
     * @param bytes how many bytes
     */
    public record Written(Path index, int keys, int runs, int files, long bytes) {
    }

    /**
     * Writes the site of {@code request}'s series and returns what it wrote.
     *
     * @throws BadInputException when the series or the baseline cannot be read, or the series has no
     *     readings
     * @throws RunFailedException when the site cannot be written
     */
    public static Written write(Request request) {
        SeriesFile file = SeriesFile.read(BadInputException.read(request.series()), request.series().toString());
        Series series = file.series();
        if (series.readings().isEmpty()) {
            throw new BadInputException(request.series() + ": the series has no readings");
        }
        Optional<Baseline> baseline = request.baseline().map(b -> Baseline.read(BadInputException.read(b), b.toString()));
        return write(history(series, request.rules(), baseline, request.repoUrl()), request.out());
    }

    /**
     * Writes the site of {@code history} into {@code out}, and returns what it wrote. The data files
     * of an earlier site there that this one does not have are removed.
     *
     * @throws RunFailedException when the site cannot be written
     */
    public static Written write(SeriesHistory history, Path out) {
        Map<String, String> files = SiteRenderer.files(history);
        long bytes = 0;
        try {
            Path data = out.resolve("data");
            Files.createDirectories(data);
            Set<Path> written = new HashSet<>();
            List<Map.Entry<String, String>> entries = new ArrayList<>(files.entrySet());
            for (Map.Entry<String, String> e : entries) {
                Path p = out.resolve(e.getKey());
                written.add(p);
                byte[] content = e.getValue().getBytes(StandardCharsets.UTF_8);
                Files.write(p, content);
                bytes += content.length;
            }
            try (DirectoryStream<Path> old = Files.newDirectoryStream(data, "keys-*.js")) {
                for (Path p : old) {
                    if (!written.contains(p)) {
                        Files.delete(p);
                    }
                }
            }
        } catch (IOException e) {
            throw new RunFailedException("cannot write the site to " + out + ": " + e.getMessage(), e);
        }
        return new Written(out.resolve(SiteRenderer.INDEX), history.keys().size(), history.runs().size(), files.size(),
                bytes);
    }

    /**
     * Writes the site of the synthetic series of {@code perfab series demo} (see
     * {@link SyntheticSeries}) into {@code out}, under the default rules, with no links: its commits
     * are made up.
     *
     * @param seed the noise's seed
     * @throws RunFailedException when the site cannot be written
     */
    public static Written demo(long seed, Path out) {
        return write(history(SyntheticSeries.make(seed), SeriesRules.Options.DEFAULT, Optional.empty(),
                Optional.empty()), out);
    }

    /**
     * Returns what the site of {@code series} shows: every key, by name, with its movements under
     * {@code rules}, its readings on a processor model new to it, and its noise.
     */
    public static SeriesHistory history(Series series, SeriesRules.Options rules, Optional<Baseline> baseline,
            Optional<String> repoUrl) {
        Map<String, List<Series.Reading>> byKey = series.byKey();
        List<String> names = new ArrayList<>(byKey.keySet());
        Collections.sort(names);
        List<SeriesHistory.Key> keys = names.parallelStream().map(name -> key(name, byKey.get(name), rules)).toList();
        return new SeriesHistory(rules, series.runs(), keys, baseline, repoUrl);
    }

    private static SeriesHistory.Key key(String name, List<Series.Reading> readings, SeriesRules.Options rules) {
        List<SeriesRules.Point> points = Series.points(readings);
        List<Optional<SeriesRules.Move>> moves = movements(points, rules);
        List<SeriesHistory.Movement> movements = new ArrayList<>();
        for (int i = 0; i < moves.size(); i++) {
            if (moves.get(i).isPresent()) {
                movements.add(new SeriesHistory.Movement(i, moves.get(i).get(), i == 0 || moves.get(i - 1).isEmpty()));
            }
        }
        List<Integer> newCpus = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < readings.size(); i++) {
            if (seen.add(readings.get(i).cpu()) && i > 0) {
                newCpus.add(i);
            }
        }
        return new SeriesHistory.Key(name, readings, SeriesRules.noise(points, points.size(), rules.window()), movements,
                newCpus);
    }

    /**
     * Returns the movement of every reading of one key's {@code history} (its readings in run
     * order): exactly what {@link SeriesRules#judge} gives for each, which {@code check} reports.
     * The one place the site finds movements. Computed in one pass: {@code judge} works out the
     * key's noise afresh for each reading, which over a year of nights and ten thousand keys takes
     * minutes; here the noise is kept as a running median of the readings' deviations, and the rest
     * of the rules, which look back a bounded number of readings, are applied as {@code judge}
     * applies them.
     */
    static List<Optional<SeriesRules.Move>> movements(List<SeriesRules.Point> history, SeriesRules.Options o) {
        int n = history.size();
        double[] ratios = new double[n];
        long[] days = new long[n];
        for (int i = 0; i < n; i++) {
            ratios[i] = history.get(i).ratio();
            days[i] = history.get(i).date().toEpochDay();
        }
        Noise noise = Noise.of(ratios, o.window());
        List<Optional<SeriesRules.Move>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(judge(ratios, days, i, o, noise.after(i)));
        }
        return out;
    }

    /** {@link SeriesRules#judge} of reading {@code i}, with the key's noise before it given. */
    private static Optional<SeriesRules.Move> judge(double[] ratios, long[] days, int i, SeriesRules.Options o,
            double noise) {
        if (i < o.minEarlier()) {
            return Optional.empty();
        }
        double ratio = ratios[i];
        int from = Math.max(0, i - o.window());
        double reference = median(ratios, from, i);
        double change = (ratio / reference - 1) * 100;
        double limit = Math.max(o.stepFloor(), o.noiseTimes() * noise * 100);
        if (Math.abs(change) > limit) {
            return Optional.of(new SeriesRules.Move(SeriesRules.Rule.STEP, ratio, reference, change, limit,
                    range(from, i)));
        }
        if (Double.isNaN(o.drift())) {
            return Optional.empty();
        }
        long cutoff = days[i] - o.driftDays();
        int[] old = new int[o.window()];
        int count = 0;
        for (int j = i - 1; j >= 0 && count < old.length; j--) {
            if (days[j] <= cutoff) {
                old[old.length - 1 - count++] = j;
            }
        }
        if (count == 0) {
            return Optional.empty();
        }
        double recent = median(ratios, Math.max(0, i - o.driftRecent() + 1), i + 1);
        double[] older = new double[count];
        List<Integer> positions = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            int j = old[old.length - count + k];
            older[k] = ratios[j];
            positions.add(j);
        }
        double was = Sample.median(older);
        double drift = (recent / was - 1) * 100;
        if (Math.abs(drift) > o.drift()) {
            return Optional.of(new SeriesRules.Move(SeriesRules.Rule.DRIFT, recent, was, drift, o.drift(),
                    positions));
        }
        return Optional.empty();
    }

    /**
     * A key's noise as {@link SeriesRules#noise} defines it, before each reading: the median of the
     * deviations of the earlier readings from the second on, kept as a running median (a max-heap of
     * the lower half, a min-heap of the upper) so that all of a key's take one pass.
     */
    private static final class Noise {
        private final double[] after;

        private Noise(double[] after) {
            this.after = after;
        }

        static Noise of(double[] ratios, int window) {
            int n = ratios.length;
            double[] after = new double[n + 1];
            PriorityQueue<Double> low = new PriorityQueue<>(Collections.reverseOrder());
            PriorityQueue<Double> high = new PriorityQueue<>();
            for (int i = 0; i <= n; i++) {
                after[i] = i < 2 ? 0 : low.size() > high.size() ? low.peek() : (low.peek() + high.peek()) / 2.0;
                if (i >= 1 && i < n) {
                    double d = Math.abs(ratios[i] / median(ratios, Math.max(0, i - window), i) - 1);
                    if (low.isEmpty() || d <= low.peek()) {
                        low.add(d);
                    } else {
                        high.add(d);
                    }
                    if (low.size() > high.size() + 1) {
                        high.add(low.poll());
                    } else if (high.size() > low.size()) {
                        low.add(high.poll());
                    }
                }
            }
            return new Noise(after);
        }

        /** Returns the noise before reading {@code i}, as a fraction: over the deviations of readings 1 to i - 1. */
        double after(int i) {
            return after[i];
        }
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> r = new ArrayList<>(to - from);
        for (int k = from; k < to; k++) {
            r.add(k);
        }
        return r;
    }

    /** Returns the median of {@code ratios} from {@code from} to {@code to} (exclusive), as {@link Sample#median}. */
    private static double median(double[] ratios, int from, int to) {
        return Sample.median(Arrays.copyOfRange(ratios, from, to));
    }

    /**
     * Returns the web address commits and runs are linked under: {@code given}, else
     * {@code $GITHUB_SERVER_URL/$GITHUB_REPOSITORY} when both are set; empty when neither is
     * known. A trailing {@code /} is dropped.
     *
     * @throws BadInputException when the address is not an http or https URL with a host
     */
    public static Optional<String> repoUrl(Optional<String> given, Map<String, String> env) {
        Optional<String> url = given.or(() -> {
            String server = env.getOrDefault("GITHUB_SERVER_URL", "");
            String repo = env.getOrDefault("GITHUB_REPOSITORY", "");
            return server.isBlank() || repo.isBlank() ? Optional.empty() : Optional.of(server.replaceAll("/+$", "")
                    + "/" + repo);
        }).map(String::trim).map(u -> u.replaceAll("/+$", ""));
        if (url.isEmpty()) {
            return url;
        }
        try {
            URI uri = new URI(url.get());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getQuery() != null
                    || uri.getFragment() != null) {
                throw new BadInputException("--repo-url '" + url.get() + "' is not an http or https address of a"
                        + " repository (https://github.com/OWNER/REPO)");
            }
        } catch (URISyntaxException e) {
            throw new BadInputException("--repo-url '" + url.get() + "' is not an address: " + e.getReason());
        }
        return url;
    }
}
