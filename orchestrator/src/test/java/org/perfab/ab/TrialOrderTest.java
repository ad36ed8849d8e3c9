package org.perfab.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.perfab.model.Side;

class TrialOrderTest {
    private static String letters(TrialOrder order) {
        StringBuilder s = new StringBuilder();
        order.forEach(slot -> s.append(slot.side() == Side.BASE ? 'A' : 'B'));
        return s.toString();
    }

    @Test
    void alternatesTheFirstPositionAfterTheWarmUps() {
        TrialOrder order = new TrialOrder(4, 2, 1, Optional.empty());
        assertEquals(12, order.size());
        assertEquals("ABBAABBAABBA", letters(order));
        List<TrialOrder.Slot> slots = new ArrayList<>();
        order.forEach(slots::add);
        assertTrue(slots.get(3).warmup());
        assertEquals(new TrialOrder.Slot(4, Side.BASE, 0, 0, false), slots.get(4));
        assertEquals(new TrialOrder.Slot(11, Side.BASE, 0, 3, false), slots.get(11));
        for (int i = 0; i < slots.size(); i++) {
            assertEquals(i, slots.get(i).seq());
        }
    }

    @Test
    void buildsTakeTurnsPairByPair() {
        List<Integer> builds = new ArrayList<>();
        new TrialOrder(6, 0, 3, Optional.empty()).forEach(s -> builds.add(s.build()));
        assertEquals(List.of(0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2), builds);
    }

    @Test
    void aSeedFlipsACoinPerPairTheSameWayEveryTime() {
        TrialOrder order = new TrialOrder(50, 1, 1, Optional.of(7L));
        String first = letters(order);
        assertEquals(first, letters(order), "walking the order again gives the same order");
        assertEquals(first, letters(new TrialOrder(50, 1, 1, Optional.of(7L))));
        assertNotEquals(first, letters(new TrialOrder(50, 1, 1, Optional.of(8L))));
        for (int i = 0; i < first.length(); i += 2) {
            assertNotEquals(first.charAt(i), first.charAt(i + 1), "one trial of each side per pair");
        }
        assertNotEquals(letters(new TrialOrder(50, 1, 1, Optional.empty())), first, "not the plain alternation");
    }

    @Test
    void refusesAnEmptyOrder() {
        assertThrows(IllegalArgumentException.class, () -> new TrialOrder(0, 0, 1, Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> new TrialOrder(2, -1, 1, Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> new TrialOrder(2, 0, 0, Optional.empty()));
    }
}
