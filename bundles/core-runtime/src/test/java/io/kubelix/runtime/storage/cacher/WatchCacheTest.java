package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

    @Test
    void aFullWindowOfFreshEventsDoublesUpToItsLargest() {
        long[] now = {0};
        WatchCache cache = listedAt10(new EventWindow(4, 16, Duration.ofSeconds(10)), now);

        addEvents(cache, 11, 14);
        assertEquals(4, cache.capacity(), "not full before its fifth event");
        addEvents(cache, 15, 15);
        assertEquals(8, cache.capacity(), "full of fresh events: doubled rather than drop one");
        addEvents(cache, 16, 30);
        assertEquals(16, cache.capacity(), "no larger than its largest");
        assertEquals(16, cache.eventsAfter(14).size(), "at its largest it drops the oldest: 15..30 are kept");
        assertEquals(410, assertThrows(StatusException.class, () -> cache.eventsAfter(13)).code());
    }

    @Test
    void aFullWindowWhoseOldestEventIsStaleDropsItInsteadOfGrowing() {
        long[] now = {0};
        WatchCache cache = listedAt10(new EventWindow(4, 16, Duration.ofSeconds(10)), now);
        addEvents(cache, 11, 14);

        now[0] = TimeUnit.SECONDS.toNanos(11);
        addEvents(cache, 15, 15);

        assertEquals(4, cache.capacity());
        assertEquals(List.of(12L, 13L, 14L, 15L), cache.eventsAfter(11).stream().map(e -> e.resourceVersion).toList());
        assertEquals(410, assertThrows(StatusException.class, () -> cache.eventsAfter(10)).code());
    }

    @Test
    void aWindowWhoseNewestQuarterIsStaleHalvesKeepingItsNewestEvents() {
        long[] now = {0};
        WatchCache cache = listedAt10(new EventWindow(4, 16, Duration.ofSeconds(10)), now);
        addEvents(cache, 11, 26);
        assertEquals(16, cache.capacity(), "grown in a burst");

        // A quiet spell, then events again: a quarter of 16 back is older than 10 s.
        now[0] = TimeUnit.SECONDS.toNanos(30);
        addEvents(cache, 27, 27);

        assertEquals(8, cache.capacity());
        assertEquals(List.of(20L, 21L, 22L, 23L, 24L, 25L, 26L, 27L),
                cache.eventsAfter(19).stream().map(e -> e.resourceVersion).toList(), "the newest 7 and the new one");
        assertEquals(410, assertThrows(StatusException.class, () -> cache.eventsAfter(18)).code());

        now[0] = TimeUnit.SECONDS.toNanos(31);
        addEvents(cache, 28, 30);
        assertEquals(4, cache.capacity(), "halved again, down to its smallest");
        assertEquals(List.of(27L, 28L, 29L, 30L), cache.eventsAfter(26).stream().map(e -> e.resourceVersion).toList());
        now[0] = TimeUnit.SECONDS.toNanos(60);
        addEvents(cache, 31, 31);
        assertEquals(4, cache.capacity(), "never below its smallest");
    }

    @Test
    void aFixedWindowNeitherGrowsNorShrinks() {
        long[] now = {0};
        WatchCache cache = listedAt10(EventWindow.fixed(4), now);
        addEvents(cache, 11, 20);
        assertEquals(4, cache.capacity());
        now[0] = TimeUnit.HOURS.toNanos(1);
        addEvents(cache, 21, 21);
        assertEquals(4, cache.capacity());
        assertEquals(List.of(18L, 19L, 20L, 21L), cache.eventsAfter(17).stream().map(e -> e.resourceVersion).toList());
    }

    /** An empty cache listed at resourceVersion 10, whose clock reads {@code now[0]}. */
    private static WatchCache listedAt10(EventWindow window, long[] now) {
        WatchCache cache = new WatchCache(window, () -> now[0]);
        cache.replace(List.of(), 10, o -> "");
        return cache;
    }

    /** ADDED events at resourceVersions {@code from} to {@code to}, one object each. */
    private static void addEvents(WatchCache cache, long from, long to) {
        for (long rv = from; rv <= to; rv++) {
            cache.process(WatchEvent.Type.ADDED, "/cm/ns/o" + rv, object(rv));
        }
    }

    private static ObjectNode object(long rv) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.putObject("metadata").put("name", "o" + rv).put("resourceVersion", Long.toString(rv));
        return o;
    }
}
