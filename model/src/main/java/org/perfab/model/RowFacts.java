package org.perfab.model;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.perfab.stats.Verdict;

/**
 * What a table judged anew keeps of the rows it stands for: which cells were profiles, the
 * functions whose counts moved, each row's noise floor and the rows counted instead. A run knew
 * these beside its measurements, so a table read back from {@code results.json}, or merged from
 * shards, is judged from the measurements and given them again ({@link #on}).
 *
 * @param profiles the cells marked {@code role: profile}
 * @param functions the functions whose counts moved, by cell
 * @param floors each row's noise floor, by cell
 * @param countedInstead the cells whose time rows were counted instead
 */
record RowFacts(
        Set<CellId> profiles,
        Map<CellId, List<FunctionChange>> functions,
        Map<CellId, Double> floors,
        Set<CellId> countedInstead) {
    RowFacts {
        profiles = Set.copyOf(profiles);
        functions = Map.copyOf(functions);
        floors = Map.copyOf(floors);
        countedInstead = Set.copyOf(countedInstead);
    }

    /** Returns what {@code rows} know, a later row of a cell over an earlier. */
    static RowFacts of(List<CellComparison> rows) {
        Set<CellId> profiles = new HashSet<>();
        Map<CellId, List<FunctionChange>> functions = new HashMap<>();
        Map<CellId, Double> floors = new HashMap<>();
        Set<CellId> countedInstead = new HashSet<>();
        for (CellComparison row : rows) {
            CellId id = row.cell().id();
            if (row.comparison().verdict() == Verdict.PROFILE) {
                profiles.add(id);
            }
            functions.put(id, row.functions());
            floors.put(id, row.noiseFloor());
            if (row.countedInstead()) {
                countedInstead.add(id);
            } else {
                countedInstead.remove(id);
            }
        }
        return new RowFacts(profiles, functions, floors, countedInstead);
    }

    /** Returns whether {@code cell} was a profile. */
    boolean profile(Cell cell) {
        return profiles.contains(cell.id());
    }

    /** Returns {@code judged} with what its rows knew: their functions, noise floors and rows counted instead. */
    ComparisonTable on(ComparisonTable judged) {
        return judged.withFunctions(r -> functions.getOrDefault(r.cell().id(), List.of()))
                .withNoiseFloors(r -> floors.getOrDefault(r.cell().id(), Double.NaN))
                .countedInstead(r -> countedInstead.contains(r.cell().id()));
    }
}
