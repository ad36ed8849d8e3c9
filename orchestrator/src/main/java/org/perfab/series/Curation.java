package org.perfab.series;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.perfab.failure.BadInputException;
import org.perfab.git.Commit;
import org.perfab.git.GitRepo;
import org.perfab.model.Series;
import org.perfab.model.SeriesCuration;

/**
 * Which runs of a nightly series to leave out: those named, and, when the series is kept to a ref,
 * those whose commit is not on it. A history folded in from elsewhere (a wiki's, say) holds runs of
 * branch commits that no longer exist; left in, each is a night of its own noise, and it can catch
 * a regression on the wrong night.
 *
 * @param on keep only the runs whose every commit is the ref's or an ancestor of it; empty to keep
 *     every run's
 * @param repo the repository the ref and the commits are looked up in
 * @param drop the ids of runs to drop, each of which must be a run of the series
 */
public record Curation(Optional<String> on, Path repo, List<String> drop) {
    /** Keeps every run. */
    public static final Curation NONE = new Curation(Optional.empty(), Path.of("."), List.of());

    public Curation {
        Objects.requireNonNull(on, "on");
        Objects.requireNonNull(repo, "repo");
        drop = List.copyOf(drop);
    }

    /** Returns whether this drops nothing whatever the series. */
    boolean keepsAll() {
        return on.isEmpty() && drop.isEmpty();
    }

    /**
     * Returns the runs of {@code series} to drop, and why.
     *
     * @throws BadInputException naming {@code shown} and the id when a run to drop is not in the
     *     series, or naming the ref when the repository has no such ref
     */
    SeriesCuration decide(Series series, String shown) {
        List<String> runs = series.runs();
        for (String id : drop) {
            if (!runs.contains(id)) {
                throw new BadInputException("--drop-run '" + id + "': no run of that id in " + shown);
            }
        }
        Map<String, List<Series.Reading>> byRun = new LinkedHashMap<>();
        series.readings()
                .forEach(r ->
                        byRun.computeIfAbsent(r.run(), k -> new ArrayList<>()).add(r));
        Map<String, GitRepo.Reach> reach = on.map(ref -> reach(ref, byRun)).orElse(Map.of());
        List<SeriesCuration.Dropped> dropped = new ArrayList<>();
        for (Map.Entry<String, List<Series.Reading>> e : byRun.entrySet()) {
            List<Series.Reading> readings = e.getValue();
            Series.Reading first = readings.get(0);
            Set<String> commits = commits(readings);
            String commit = commits.isEmpty() ? "" : commits.iterator().next();
            SeriesCuration.Reason reason = null;
            if (drop.contains(e.getKey())) {
                reason = SeriesCuration.Reason.NAMED;
            } else if (on.isPresent() && commits.isEmpty()) {
                reason = SeriesCuration.Reason.NO_COMMIT;
            } else if (on.isPresent()) {
                for (String c : commits) {
                    GitRepo.Reach r = reach.get(c);
                    if (r != GitRepo.Reach.ON) {
                        commit = c;
                        reason = r == GitRepo.Reach.OFF ? SeriesCuration.Reason.OFF_REF : SeriesCuration.Reason.ABSENT;
                        break;
                    }
                }
            }
            if (reason != null) {
                dropped.add(new SeriesCuration.Dropped(e.getKey(), first.date(), commit, reason, readings.size()));
            }
        }
        return new SeriesCuration(on, runs.size(), dropped);
    }

    private Map<String, GitRepo.Reach> reach(String ref, Map<String, List<Series.Reading>> byRun) {
        Set<String> commits = new LinkedHashSet<>();
        byRun.values().forEach(readings -> commits.addAll(commits(readings)));
        try (GitRepo git = GitRepo.open(repo)) {
            Commit tip;
            try {
                tip = git.resolve(ref);
            } catch (BadInputException e) {
                throw new BadInputException("--on: " + e.getMessage(), e);
            }
            return git.reach(tip, commits);
        }
    }

    /** Returns the commits a run's readings record, blank ones left out, in file order. */
    private static Set<String> commits(List<Series.Reading> readings) {
        Set<String> commits = new LinkedHashSet<>();
        readings.stream().map(r -> r.commit().trim()).filter(c -> !c.isEmpty()).forEach(commits::add);
        return commits;
    }
}
