package io.kubelix.runtime.server;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** OSGi's service order (Core R8 5.2.5): highest service.ranking first, then lowest service.id. */
class RankedServicesTest {

    @Test
    void highestRankingFirstThenLowestServiceId() {
        RankedServices<String> services = new RankedServices<>();
        services.add("id3-rank0", props(null, 3L));
        services.add("id1-rank0", props(null, 1L));
        services.add("id4-rank10", props(10, 4L));
        services.add("id2-rank-5", props(-5, 2L));
        services.add("id5-rank10", props(10, 5L));

        assertEquals(List.of("id4-rank10", "id5-rank10", "id1-rank0", "id3-rank0", "id2-rank-5"), services.get());
    }

    @Test
    void theExtremeRankingsSortAtTheEnds() {
        RankedServices<String> services = new RankedServices<>();
        services.add("min", props(Integer.MIN_VALUE, 1L));
        services.add("zero", props(0, 2L));
        services.add("max", props(Integer.MAX_VALUE, 3L));

        assertEquals(List.of("max", "zero", "min"), services.get());
    }

    @Test
    void rankingThatIsNotAnIntegerCountsAsZero() {
        RankedServices<String> services = new RankedServices<>();
        services.add("long-ranking", props(100L, 1L));
        services.add("string-ranking", props("100", 2L));
        services.add("rank1", props(1, 3L));

        assertEquals(List.of("rank1", "long-ranking", "string-ranking"), services.get());
    }

    @Test
    void removeDropsOnlyThatService() {
        RankedServices<String> services = new RankedServices<>();
        String a = new String("same");
        String b = new String("same");
        services.add(a, props(0, 1L));
        services.add(b, props(0, 2L));

        services.remove(a);

        assertEquals(1, services.get().size());
        assertSame(b, services.get().get(0), "removal is by identity, not equals");
    }

    @Test
    void snapshotsAreImmutableAndUnchangedByLaterAdds() {
        RankedServices<String> services = new RankedServices<>();
        services.add("a", props(0, 1L));
        List<String> before = services.get();

        services.add("b", props(5, 2L));

        assertEquals(List.of("a"), before);
        assertEquals(List.of("b", "a"), services.get());
        assertThrows(UnsupportedOperationException.class, () -> before.add("c"));
    }

    private static Map<String, Object> props(Object ranking, long id) {
        Map<String, Object> p = new HashMap<>();
        p.put("service.id", id);
        if (ranking != null) {
            p.put("service.ranking", ranking);
        }
        return p;
    }
}
