package org.perfab.series;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.perfab.failure.BadInputException;
import org.perfab.failure.RunFailedException;
import org.perfab.model.Baseline;
import org.perfab.model.Series;
import org.perfab.model.SeriesCheck;
import org.perfab.model.SeriesFile;
import org.perfab.model.SeriesHistory;
import org.perfab.stats.SeriesRules;

/**
 * The static site of a nightly series ({@code perfab series site}): reads the series and the
 * baseline, finds every reading's movement as {@code perfab series check} of its run would, and
 * writes the pages the command line renders of them (the report's site renderer) into a folder.
 */
public final class SeriesSite {
    private SeriesSite() {}

    /**
     * What to make a site of.
     *
     * @param series the series file
     * @param baseline a ratchet baseline to show beside it; empty for none
     * @param out the folder to write the site into (created; the site's files in it replaced)
     * @param rules the rules the movements are found with
     * @param repoUrl the repository's web address for links to commits and runs; empty for none
     */
    public record Request(
            Path series, Optional<Path> baseline, Path out, SeriesRules.Options rules, Optional<String> repoUrl) {
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
    public record Written(Path index, int keys, int runs, int files, long bytes) {}

    /** Renders a site's history as its pages: each file's path in the site and its text, the index first. */
    @FunctionalInterface
    public interface Pages {
        /** Returns the pages of {@code history}, the index first. */
        Map<String, String> of(SeriesHistory history);
    }

    /**
     * Writes the site of {@code request}'s series, its pages as {@code pages} renders them, and
     * returns what it wrote.
     *
     * @throws BadInputException when the series or the baseline cannot be read, or the series has no
     *     readings
     * @throws RunFailedException when the site cannot be written
     */
    public static Written write(Request request, Pages pages) {
        SeriesFile file = SeriesFile.read(
                BadInputException.read(request.series()), request.series().toString());
        Series series = file.series();
        if (series.readings().isEmpty()) {
            throw new BadInputException(request.series() + ": the series has no readings");
        }
        Optional<Baseline> baseline =
                request.baseline().map(b -> Baseline.read(BadInputException.read(b), b.toString()));
        return write(history(series, request.rules(), baseline, request.repoUrl()), pages, request.out());
    }

    /**
     * Writes the site of {@code history}, its pages as {@code pages} renders them, into {@code out},
     * and returns what it wrote. The data files of an earlier site there that this one does not have
     * are removed.
     *
     * @throws RunFailedException when the site cannot be written
     */
    public static Written write(SeriesHistory history, Pages pages, Path out) {
        Map<String, String> files = pages.of(history);
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
        return new Written(
                out.resolve(files.keySet().iterator().next()),
                history.keys().size(),
                history.runs().size(),
                files.size(),
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
    public static Written demo(long seed, Pages pages, Path out) {
        return write(
                history(SyntheticSeries.make(seed), SeriesRules.Options.DEFAULT, Optional.empty(), Optional.empty()),
                pages,
                out);
    }

    /**
     * Returns what the site of {@code series} shows: every key, by name, with its movements under
     * {@code rules} as {@code check} of each run reports them ({@link SeriesCheck#verdicts}), its
     * re-basings, its readings on a processor model new to it, and its noise.
     */
    public static SeriesHistory history(
            Series series, SeriesRules.Options rules, Optional<Baseline> baseline, Optional<String> repoUrl) {
        Map<String, List<SeriesCheck.Verdict>> verdicts = SeriesCheck.verdicts(series, rules);
        List<String> names = new ArrayList<>(verdicts.keySet());
        Collections.sort(names);
        List<SeriesHistory.Key> keys = names.parallelStream()
                .map(name -> key(name, verdicts.get(name), rules))
                .toList();
        return new SeriesHistory(rules, series.runs(), keys, baseline, repoUrl);
    }

    private static SeriesHistory.Key key(String name, List<SeriesCheck.Verdict> verdicts, SeriesRules.Options rules) {
        List<Series.Reading> readings =
                verdicts.stream().map(SeriesCheck.Verdict::reading).toList();
        List<SeriesHistory.Movement> movements = new ArrayList<>();
        List<SeriesHistory.Rebasing> rebasings = new ArrayList<>();
        List<Integer> newCpus = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < verdicts.size(); i++) {
            SeriesCheck.Verdict v = verdicts.get(i);
            int at = i;
            v.movement().ifPresent(m -> movements.add(new SeriesHistory.Movement(at, m.move(), m.isNew())));
            v.rebasing().ifPresent(r -> rebasings.add(new SeriesHistory.Rebasing(at, r.from())));
            if (seen.add(v.reading().cpu()) && i > 0) {
                newCpus.add(i);
            }
        }
        return new SeriesHistory.Key(
                name,
                readings,
                SeriesRules.noise(Series.points(readings), readings.size(), rules.window()),
                movements,
                newCpus,
                rebasings);
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
                    return server.isBlank() || repo.isBlank()
                            ? Optional.empty()
                            : Optional.of(server.replaceAll("/+$", "") + "/" + repo);
                })
                .map(String::trim)
                .map(u -> u.replaceAll("/+$", ""));
        if (url.isEmpty()) {
            return url;
        }
        try {
            URI uri = new URI(url.get());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https"))
                    || uri.getHost() == null
                    || uri.getQuery() != null
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
