package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The event window: which events a watch from a resourceVersion gets, as the window wraps around. */
class WatchCacheTest {

    @Test
    void eventsAfterAVersionAreFoundInAWrappedWindow() {
        WatchCache cache = new WatchCache(5);
        cache.replace(List.of(), 10, o -> "");
        // Revisions 12, 14, ..., 26 (gaps, as other resources' writes leave): the window keeps the last five.
        for (long rv = 12; rv <= 26; rv += 2) {
            cache.process(WatchEvent.Type.ADDED, "/cm/ns/o" + rv, object(rv));
        }

        for (long rv = 17; rv <= 30; rv++) {
            long after = rv;
            List<Long> expected = java.util.stream.LongStream.rangeClosed(18, 26).filter(v -> v % 2 == 0 && v > after)
                    .boxed().toList();
            assertEquals(expected, cache.eventsAfter(rv).stream().map(e -> e.resourceVersion).toList(), "after " + rv);
        }
        assertEquals(List.of(18L, 20L, 22L, 24L, 26L),
                cache.eventsAfter(16).stream().map(e -> e.resourceVersion).toList(), "the window's start");
        StatusException e = assertThrows(StatusException.class, () -> cache.eventsAfter(15));
        assertEquals(410, e.code());
    }

    @Test
    void anEmptyWindowHasNothingAfterItsList() {
        WatchCache cache = new WatchCache(3);
        cache.replace(List.of(), 7, o -> "");

        assertEquals(List.of(), cache.eventsAfter(7));
        assertEquals(List.of(), cache.eventsAfter(9));
    }

    private static ObjectNode object(long rv) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.putObject("metadata").put("name", "o" + rv).put("resourceVersion", Long.toString(rv));
        return o;
    }
}
